#!/bin/sh
#GSUB --consolidate --no-requeue
#GSUB --spread --ckpt-grace 1-24 -t 25:61:00
