#!/bin/bash
#SBATCH --gres=gpu:2 -t 0:05:00 -J x
#SBATCH -N 1 --gpus-per-node=2 --requeue
#GSUB -J y
#SBATCH --open-mode=truncate -Q
#SBATCH --mem=4G
python3 train.py
