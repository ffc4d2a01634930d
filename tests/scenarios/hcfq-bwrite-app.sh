#!/bin/sh
# budget: 420
# results: ext4-fio-none ext4-fio-hcfq raw-fio-none raw-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-tput raw-dirty-none raw-dirty-hcfq raw-app raw-tput dmesg
# hcfq-bwrite for `make check`: writers' shares, throughput and dirty
# limits, with a 10 s ramp and 20 s judged, to ext4 files and to the raw
# device.  The device shares are left out: on a single bdi_writeback
# the flusher writes inodes (and a raw device's ranges) in turn, so
# they follow the weights only over windows far longer than the pool
# (Documentation/block/hcfq-iosched.rst, "Buffered writers"); the full
# scenario, in `make check-bwrite`, reports them.  On v2 the groups get
# the io controller only.
BW_RAMP=10 BW_RT=20 BW_DEV=0 BW_NOMEM=1 BW_TARGETS="ext4 raw"
export BW_RAMP BW_RT BW_DEV BW_NOMEM BW_TARGETS
. /tests/scenarios/hcfq-bwrite.sh
