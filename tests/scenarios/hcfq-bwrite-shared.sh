#!/bin/sh
# budget: 240
# results: shared-app shared-charge dmesg
# The shared-file part of hcfq-bwrite-mix alone (issue 13, test 7), for
# `make check-bwrite`.
MIX_PARTS=shared
export MIX_PARTS
. /tests/scenarios/hcfq-bwrite-mix.sh
