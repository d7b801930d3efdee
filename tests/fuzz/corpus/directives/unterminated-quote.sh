#!/bin/sh
#GSUB -J 'open
