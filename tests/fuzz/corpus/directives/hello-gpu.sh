#!/bin/sh
# A first gbatch job: `gsub examples/hello-gpu.sh`. The #GSUB lines are
# gsub options, read from the top of the script; the command line wins.
#GSUB -J hello-gpu
#GSUB -G 1
#GSUB -t 5:00
#GSUB -o hello-gpu-%j.out

echo "job $GBATCH_JOB_ID ($GBATCH_JOB_NAME) on $GBATCH_NODELIST"
echo "GPUs: $GBATCH_GPUS, CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi -L
fi
