#!/bin/sh
#GSUB
