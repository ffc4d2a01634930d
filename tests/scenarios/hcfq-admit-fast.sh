#!/bin/sh
# budget: 600
# results: dread dread-tput dwrite dwrite-tput bread bread-tput dmesg
# hcfq-admit on a QD1 disk at 0.5 ms per request. The think time that
# hcfq waits for (see hcfq-admit) is then half a request's service, and
# none is bound by the emulated CPU: hcfq's O_DIRECT throughput moved
# between 0.78 and 1.01 x none's over three boots, so
# the bound here is 0.7.
ADMIT_NSEC=500000
ADMIT_MIN=${ADMIT_MIN:-0.7}
export ADMIT_NSEC ADMIT_MIN
. /tests/scenarios/hcfq-admit.sh
