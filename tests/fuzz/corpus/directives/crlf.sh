#!/bin/sh
#GSUB -J win
#GSUB --gpus=2
echo hi
