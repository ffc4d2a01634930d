#!/bin/sh
# budget: 180
# results: read read-fio write write-fio mix mix-fio
# Seed 002: three groups at weights 1000/500/100, each with 100 processes
# doing random 4 KiB direct I/O (300 processes: more than the scheduler
# has tags); reads, writes, and a mix where g1000 and g500 read and g100
# writes. Shares within +-5 points of 62.5/31.3/6.3, from the kernel's
# counters over the window and from fio's bytes over the run.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk s002 hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1000:1000 g500:500 g100:100" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
WANT="g1000:62.5 g500:31.3 g100:6.3"
J="--bs=4k --direct=1 --ioengine=psync --numjobs=100 --group_reporting"
R="--rw=randread $J" Wr="--rw=randwrite $J"
fair_run read 20 "g1000:$R;g500:$R;g100:$R"
fair_check "$SCEN:read" read win "$WANT" 5
fair_check "$SCEN:read-fio" read fio "$WANT" 5
fair_run write 20 "g1000:$Wr;g500:$Wr;g100:$Wr"
fair_check "$SCEN:write" write win "$WANT" 5
fair_check "$SCEN:write-fio" write fio "$WANT" 5
fair_run mix 20 "g1000:$R;g500:$R;g100:$Wr"
fair_check "$SCEN:mix" mix win "$WANT" 5
fair_check "$SCEN:mix-fio" mix fio "$WANT" 5
nullb_destroy s002
