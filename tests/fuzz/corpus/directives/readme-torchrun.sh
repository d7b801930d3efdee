#!/bin/sh
#GSUB -G 4
#GSUB -t 2-00:00:00
#GSUB -o logs/%x-%j.out
torchrun --nproc_per_node "$GBATCH_GPUS" train.py
