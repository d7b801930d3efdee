/* predict-int.h: the predictor's hash, made replaceable so that a test can
 * make every key collide and see that keys are still told apart by their
 * text. Not for use outside policy/predict*.c and its test. */
#ifndef GB_PREDICT_INT_H
#define GB_PREDICT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "policy/predict.h"

/* A key's hash: its rule, GPU count, user and name key (each never NULL;
 * "" and 0 where the rule does not use them). */
typedef uint64_t (*predict_hash_cb)(enum predict_how how, uint32_t gpus,
    const char *user, const char *name);

/* predict_create with hash in place of the predictor's own. */
struct predict	*predict_create_hashed(size_t max_keys, predict_hash_cb hash);

#endif
