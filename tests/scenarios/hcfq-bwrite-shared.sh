#!/bin/sh
# budget: 240
# results: shared-app shared-charge dmesg
# The shared-file part of hcfq-bwrite-mix, with its application shares
# (issue 13, test 7), for `make check-bwrite`.
MIX_PARTS=shared MIX_SHARED_APP=1
export MIX_PARTS MIX_SHARED_APP
. /tests/scenarios/hcfq-bwrite-mix.sh
