#!/bin/bash
# a comment

#GSUB --job-name 'my job' -t 10   # ten minutes
  # indented
#GSUB	--output="o %j" -e e\ %u.%r
#GSUB --export=NONE,FOO=1 --ckpt-signal SIGUSR2 --ckpt-grace 2:00
#GSUB --consolidate -H --parsable -D /tmp
#SBATCH --whatever
echo start
#GSUB -t 99
