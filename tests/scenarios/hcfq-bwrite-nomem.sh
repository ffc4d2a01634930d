#!/bin/sh
# budget: 900
# results: ext4-fio-none ext4-fio-hcfq raw-fio-none raw-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-dev ext4-tput raw-dirty-none raw-dirty-hcfq raw-app raw-dev raw-tput dmesg
# hcfq-bwrite on cgroup v2 with the io controller only: the three groups
# share their parent's memcg, so one bdi_writeback writes for all of
# them and dirty throttling treats them alike, as on v1.
BW_NOMEM=1
export BW_NOMEM
. /tests/scenarios/hcfq-bwrite.sh
