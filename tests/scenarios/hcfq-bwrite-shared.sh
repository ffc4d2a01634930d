#!/bin/sh
# budget: 240
# results: shared-app shared-charge dmesg
# The shared-file part of hcfq-bwrite-mix (issue 13, test 7): two groups
# at 100 and 300 write halves of one ext4 file for 60 s; see there.
MIX_PARTS=shared
export MIX_PARTS
. /tests/scenarios/hcfq-bwrite-mix.sh
