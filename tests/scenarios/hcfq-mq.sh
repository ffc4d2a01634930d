#!/bin/sh
# budget: 240
# results: read read-window read-stats read-time write write-window write-stats write-time dmesg
# Multi-queue: seed 000 on a null_blk with submit_queues=2.
SEED000_QUEUES=2
export SEED000_QUEUES
. /tests/scenarios/hcfq-seed000.sh
