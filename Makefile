# hcfq project harness: build the patched 6.12 kernel, boot it under QEMU,
# run the guest scenarios. See README.md.
SHELL := /bin/bash

.PHONY: all deps kernel kernel-debug initramfs blkshare blkshare-check kunit \
	test check check-latency check-admission check-bwrite check-devices demo bench \
	export check-series-quick clean distclean

all: check

deps:
	tools/install-deps.sh

kernel:
	tools/build-kernel.sh

kernel-debug:
	tools/build-kernel.sh --debug

blkshare:
	@if [ -f tools/blkshare/Makefile ]; then $(MAKE) -C tools/blkshare; \
	else echo "blkshare: tools/blkshare/Makefile not there yet, skipped"; fi

blkshare-check: blkshare
	@if [ -f tools/blkshare/Makefile ]; then $(MAKE) -C tools/blkshare check; \
	else echo "blkshare: tools/blkshare/Makefile missing"; echo "0 passed, 1 failed"; exit 1; fi

initramfs: blkshare
	tools/mkinitramfs.sh

kunit:
	tools/run-kunit.sh

# guest scenarios of tests/plan only (kernels and initramfs built as needed)
test: initramfs
	tools/run-tests.sh

# everything; the last line is the combined "N passed, N failed, N skipped"
check:
	tools/check.sh

demo:
	tools/demo.sh

# issue 4's latency scenarios, including those hcfq does not pass yet
check-latency: initramfs
	tools/run-tests.sh --plan tests/plan.lat

# scenarios hcfq does not pass reliably yet (see tests/plan.admit)
check-admission: initramfs
	tools/run-tests.sh --plan tests/plan.admit

# device models beyond the QD1 disk (issue 14; see tests/plan.devices)
check-devices: initramfs
	tools/run-tests.sh --plan tests/plan.devices

# buffered writers by weight (issue 13; see tests/plan.bwrite)
check-bwrite: initramfs
	tools/run-tests.sh --plan tests/plan.bwrite

bench:
	@if [ -f tests/plan.bench ]; then tools/run-tests.sh --plan tests/plan.bench; \
	else echo "bench: no tests/plan.bench yet"; fi

# the series as git format-patch files, each with the new files it adds:
# build/series/ (cover letter from tools/cover-letter.txt), checkpatch'd
export:
	tools/export-series.sh

# make export, then git am of build/series/ onto the pristine tree, which
# must give the same tree (no kernel build; make check runs it)
check-series-quick:
	tools/export-series.sh --check

clean:
	rm -rf build/obj-* build/cfg-* build/results build/initramfs* build/kunit \
		build/kunit-results build/check build/demo build/series
	@if [ -f tools/blkshare/Makefile ]; then $(MAKE) -C tools/blkshare clean; fi

# also the unpacked source trees (patched, and export's pristine one)
distclean: clean
	rm -rf build/src build/export-tmp
