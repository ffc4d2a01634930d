#!/bin/sh
# budget: 600
# results: dread dread-tput dread-time dread-stats dwrite dwrite-tput dwrite-time dwrite-stats bread bread-tput dmesg
# hcfq-admit on the icount guest (one vCPU whose clock counts
# instructions, so think times do not move with the host's load): hcfq's
# throughput at least 0.9 x none's, shares within +-3 points, and the
# O_DIRECT runs' charged time and byte counters (see hcfq-admit.sh).
ADMIT_MIN=0.9
export ADMIT_MIN
. /tests/scenarios/hcfq-admit.sh
