#!/bin/bash
# Export the kernel changes as a self-contained git format-patch series:
# build/series/0000-cover-letter.patch and one patch per line of `series`,
# each carrying the new files it needs, so that `git am` on a clean 6.12
# tree gives the same tree as tools/build-kernel.sh (which applies
# patches/ with quilt and then copies the repo's new files in).
#
#   tools/export-series.sh [--check]
#
# 1. unpack /usr/src/linux-source-6.12.tar.xz into build/export-tmp/linux
#    once (again only when the tarball changes) and commit it there as
#    the single base commit, tagged "base"; later runs reset to it
# 2. for each patch of `series`: git apply it, add the new files that
#    belong to it (NEW_FILES below: every file under block/ include/
#    Documentation/ in the repo must be listed there, each new .rst must
#    be in its directory's index.rst by then), and commit with the
#    patch's From:, Subject: and message (Signed-off-by included); the
#    new files are taken from the working tree, as build-kernel.sh does,
#    less the hunks that later patches make to them, which are in
#    patches/new-files/<the later patch's name> and which that patch
#    then applies (a patch may have only those: the debugfs one)
# 3. git format-patch --cover-letter -o build/series/; the cover letter's
#    subject and body come from tools/cover-letter.txt (its first
#    paragraph is the subject; @KERNELVERSION@ and @PACKAGE@ are filled in)
# 4. scripts/checkpatch.pl --strict, from the exported tree, on every
#    file in build/series/
# --check (make check-series-quick) also applies build/series/ with
#    git am onto the base commit and checks that the result has the same
#    tree and the same commit messages as step 2's.
#
# SERIES_AUTHOR="Name <email>" is the person who posts the series: it
# replaces the project's identity (the repo's commit author, which the
# patches carry) in every From: and Signed-off-by:, as `git commit -s`
# would sign, since a Signed-off-by certifies the DCO for a person.
#
# LINUX_TARBALL, EXPORT_WORK and EXPORT_OUT replace the base tarball, the
# work directory and build/series/ (tools/check-upstream.sh).
#
# Every commit gets the date of the repo's HEAD commit, so the same repo
# state exports the same files. Heavy steps hold the machine lock that
# keeps builds out of timing runs (HCFQ_MACHINE_LOCK, see run-tests.sh).
# The last line is "N passed, N failed": one per exported patch applied,
# one per file checkpatch found clean, and with --check one for git am
# and one for the comparison. Exit status 1 on any failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/unpack-tarball.sh
. "$REPO/tools/unpack-tarball.sh"
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
WORK=${EXPORT_WORK:-$REPO/build/export-tmp}
T=$WORK/linux
OUT=${EXPORT_OUT:-$REPO/build/series}
TEMPLATE=$REPO/tools/cover-letter.txt
CHECK=0

while (($#)); do
	case $1 in
	--check) CHECK=1 ;;
	-h|--help) sed -n '2,44p' "$0"; exit 0 ;;
	*) echo "export-series: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

if [[ -n ${SERIES_AUTHOR-} && ! $SERIES_AUTHOR =~ ^[^\<\>@]+\ \<[^\<\>\ @]+@[^\<\>\ @]+\>$ ]]; then
	echo "export-series: SERIES_AUTHOR must read \"Name <user@domain>\", not \"$SERIES_AUTHOR\"" >&2
	exit 2
fi

# The new files of the series, by the patch that adds them (its file
# name without the number, so that renumbering does not break the table).
declare -A NEW_FILES=(
	[block-add-hcfq-a-hierarchical-proportional-I-O-scheduler.patch]="
		block/hcfq-iosched.c block/hcfq-iosched.h block/hcfq-cgroup.c
		Documentation/block/hcfq-iosched.rst"
	[block-hcfq-add-KUnit-tests-of-its-pure-logic.patch]="block/hcfq-test.c"
	[mm-block-add-biotrack-record-which-cgroup-dirtied-each-page.patch]="
		block/blk-biotrack.c include/linux/biotrack.h
		Documentation/admin-guide/blockdev/biotrack.rst"
)

PASS=0
FAIL=0
T0=$SECONDS
log() { echo "export-series: $*" >&2; }
summary() { SUMMARY_DONE=1; echo "$PASS passed, $FAIL failed"; }
# an unexpected exit (set -e) still ends with the count, as one more failure
SUMMARY_DONE=0
on_exit() {
	local rc=$?
	if ((rc != 0 && !SUMMARY_DONE)); then
		log "stopped (exit $rc)"
		FAIL=$((FAIL + 1))
		summary
	fi
}
trap on_exit EXIT
# setup errors: nothing was checked past this point
die() {
	echo "export-series: ERROR: $*" >&2
	FAIL=$((FAIL + 1))
	summary
	exit 1
}

# git on the export tree only, without the user's or the system's config
# (format.*, diff.noprefix, hooks...), so that the output does not depend
# on who runs it
tgit() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$T" "$@"; }

[[ -r $TARBALL ]] || die "$TARBALL missing (run tools/install-deps.sh)"
[[ -r $TEMPLATE ]] || die "$TEMPLATE missing"

# ---------------------------------------------------------------- series
mapfile -t PATCHES < <(sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$REPO/series")
((${#PATCHES[@]})) || die "series is empty"
for p in "${PATCHES[@]}"; do
	[[ -f $REPO/patches/$p ]] || die "series names $p, which is not in patches/"
done

# ---------------------------------------------------------------- new files
# every key names exactly one patch of the series, every file is listed
# once, and every file of the repo's block/ include/ Documentation/ is
# listed
declare -A FILE_PATCH=()
for key in "${!NEW_FILES[@]}"; do
	match=()
	for p in "${PATCHES[@]}"; do
		[[ ${p#[0-9][0-9][0-9][0-9]-} == "$key" ]] && match+=("$p")
	done
	((${#match[@]} == 1)) ||
		die "NEW_FILES entry $key matches ${#match[@]} patches of series (renamed? update the table in $0)"
	for f in ${NEW_FILES[$key]}; do
		[[ -z ${FILE_PATCH[$f]-} ]] || die "$f is listed twice in NEW_FILES"
		[[ -f $REPO/$f ]] || die "$f is in NEW_FILES but not in the repo"
		FILE_PATCH[$f]=${match[0]}
	done
done
unlisted=()
repo_files=$(git -C "$REPO" ls-files -co --exclude-standard -- block include Documentation) ||
	die "git ls-files failed in $REPO"
[[ -n $repo_files ]] || die "git ls-files lists no new files in $REPO"
while IFS= read -r f; do
	case ${f##*/} in .* | *~) continue ;; esac
	[[ -n ${FILE_PATCH[$f]-} ]] || unlisted+=("$f")
done <<<"$repo_files"
((${#unlisted[@]} == 0)) ||
	die "not in NEW_FILES (say which patch adds them, in $0): ${unlisted[*]}"

# ---------------------------------------------------------------- hunks on new files
# patches/new-files/NAME holds the hunks that patch NAME makes to files an
# earlier patch of the series adds (the KUnit include in hcfq-iosched.c,
# say). build-kernel.sh never applies them: the repo's files are the
# state after the whole series. Here, a new file goes in as the repo has
# it with the later patches' hunks taken back out (git apply -R, latest
# first), and each patch then applies its own.
declare -A PATCH_IDX=() LATER_HUNKS=()
for i in "${!PATCHES[@]}"; do PATCH_IDX[${PATCHES[$i]}]=$i; done
for c in "$REPO"/patches/new-files/*; do
	[[ -e $c ]] || continue
	[[ -n ${PATCH_IDX[${c##*/}]-} ]] ||
		die "patches/new-files/${c##*/} belongs to no patch of series"
done
for i in "${!PATCHES[@]}"; do
	c=$REPO/patches/new-files/${PATCHES[$i]}
	[[ -f $c ]] || continue
	mapfile -t touched < <(sed -n -E 's|^diff --git a/([^ ]*) b/.*|\1|p' "$c")
	((${#touched[@]})) || die "patches/new-files/${PATCHES[$i]} has no diff --git hunk"
	for nf in "${touched[@]}"; do
		[[ -n ${FILE_PATCH[$nf]-} ]] ||
			die "patches/new-files/${PATCHES[$i]} touches $nf, which the series does not add"
		((PATCH_IDX[${FILE_PATCH[$nf]}] < i)) ||
			die "patches/new-files/${PATCHES[$i]} touches $nf before ${FILE_PATCH[$nf]} adds it"
		LATER_HUNKS[$nf]+=" $i"
	done
done

# ---------------------------------------------------------------- locks
mkdir -p "$WORK"
exec 8>"$WORK/.lock"
flock -n 8 || { log "another export is running: waiting"; flock 8; }
# unpacking, committing 90k files and checkpatch would skew a timing run
exec 9>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
if ! flock -n 9; then
	log "waiting for the machine lock (a guest is running)"
	t=$SECONDS
	flock 9
	log "waited $((SECONDS - t)) s for the machine lock"
	T0=$SECONDS
fi

# ---------------------------------------------------------------- base
tar_id=$(stat -c '%s %Y' "$TARBALL")
make_base() {
	log "unpacking $TARBALL into $T and committing it as the base"
	rm -rf "$T" "$WORK/tarball.id"
	unpack_tarball "$TARBALL" "$T" || die "unexpected tarball layout"
	tgit init -q
	tgit config core.autocrlf false
	tgit config gc.auto 0
	tgit config core.looseCompression 1
	tgit config user.name "hcfq export"
	tgit config user.email "hcfq-export@localhost"
	# -f: files that the tree's own .gitignore covers are part of it too
	tgit add -A -f .
	tgit commit -q --no-verify -m "${TARBALL##*/}"
	tgit tag base
	echo "$tar_id" >"$WORK/tarball.id"
}
if [[ ! -f $WORK/tarball.id || $(cat "$WORK/tarball.id") != "$tar_id" ]] ||
	! tgit rev-parse -q --verify 'base^{commit}' >/dev/null 2>&1; then
	make_base
fi
# back to the pristine tree: drop the previous export's commits and files
reset_to_base() {
	tgit am --abort >/dev/null 2>&1 || true
	tgit checkout -q -f -B "$1" base
	tgit clean -q -f -d -x
}
reset_to_base export
KVER=$(make -s -C "$T" kernelversion 2>/dev/null)
PKG=$(dpkg-query -W -f='${Package} ${Version}' linux-source-6.12 2>/dev/null || echo "${TARBALL##*/}")

# ---------------------------------------------------------------- commits
DATE=$(git -C "$REPO" log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
export GIT_AUTHOR_DATE=$DATE GIT_COMMITTER_DATE=$DATE
first_author=""
for p in "${PATCHES[@]}"; do
	f=$REPO/patches/$p
	# header: From: and Subject: (folded lines joined) up to the first
	# blank line; message: from there to the "---" line
	author=$(sed -n '1,/^$/s/^From: //p' "$f" | head -n1)
	subject=$(awk '/^$/ { exit }
		/^Subject: / { s = substr($0, 10); next }
		s != "" && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0 }
		END { print s }' "$f")
	subject=$(sed -E 's/^\[[^]]*\] *//' <<<"$subject")
	body=$(awk 'h && /^---$/ { exit } h { print } !h && /^$/ { h = 1 }' "$f")
	name=${author% <*}
	email=$(sed -n 's/.*<\([^>]*\)>.*/\1/p' <<<"$author")
	[[ -n $name && -n $email && -n $subject ]] || die "$p: no From: or Subject: header"
	grep -qxF "Signed-off-by: $author" <<<"$body" ||
		die "$p: no Signed-off-by: $author in the message"
	# the person who posts the series certifies it (DCO): their identity
	# replaces the project's as author and in the sign-off
	if [[ -n ${SERIES_AUTHOR-} ]]; then
		body=$(awk -v old="Signed-off-by: $author" -v new="Signed-off-by: $SERIES_AUTHOR" \
			'$0 == old { $0 = new } { print }' <<<"$body")
		author=$SERIES_AUTHOR
		name=${author% <*}
		email=$(sed -n 's/.*<\([^>]*\)>.*/\1/p' <<<"$author")
	fi
	[[ -n $first_author ]] || first_author=$author

	# a patch whose hunks are all on new files has none here
	if grep -q '^@@ ' "$f" && ! out=$(tgit apply --index "$f" 2>&1); then
		echo "$out" >&2
		log "$p FAILED to apply"
		FAIL=$((FAIL + 1))
		summary
		exit 1
	fi
	added=()
	for nf in "${!FILE_PATCH[@]}"; do
		[[ ${FILE_PATCH[$nf]} == "$p" ]] || continue
		[[ ! -e $T/$nf ]] || die "$nf (new in $p) exists in the tree already"
		mkdir -p "$(dirname "$T/$nf")"
		cp "$REPO/$nf" "$T/$nf"
		# take out what later patches add to it, the last one first
		for j in $(tr ' ' '\n' <<<"${LATER_HUNKS[$nf]-}" | sort -rnu); do
			c=$REPO/patches/new-files/${PATCHES[$j]}
			if ! out=$(tgit apply -R --include="$nf" "$c" 2>&1); then
				echo "$out" >&2
				die "$nf: the hunks of patches/new-files/${PATCHES[$j]} do not come out of the repo's file: run tools/refresh-new-files.sh"
			fi
		done
		added+=("$nf")
	done
	if ((${#added[@]})); then
		mapfile -t added < <(printf '%s\n' "${added[@]}" | sort)
		tgit add -f -- "${added[@]}"
	fi
	c=$REPO/patches/new-files/$p
	if [[ -f $c ]] && ! out=$(tgit apply --index "$c" 2>&1); then
		echo "$out" >&2
		log "patches/new-files/$p FAILED to apply"
		FAIL=$((FAIL + 1))
		summary
		exit 1
	fi
	# a new document has to be in its directory's toctree by now
	for nf in "${added[@]}"; do
		[[ $nf == *.rst ]] || continue
		idx=$(dirname "$nf")/index.rst
		[[ ! -f $T/$idx ]] || grep -qE "^[[:space:]]+$(basename "$nf" .rst)\$" "$T/$idx" ||
			die "$nf is added by $p but $idx does not list it: add it to that patch"
	done
	printf '%s\n\n%s\n' "$subject" "$body" |
		GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
		tgit commit -q --no-verify --cleanup=verbatim -F -
	log "$p: applied${added[*]:+, added ${added[*]}}"
	PASS=$((PASS + 1))
done

# the last patch leaves every new file as the repo has it (what
# build-kernel.sh builds)
for nf in "${!FILE_PATCH[@]}"; do
	cmp -s "$REPO/$nf" "$T/$nf" ||
		die "$nf after the series differs from the repo's (patches/new-files/ out of date?)"
done

# ---------------------------------------------------------------- format-patch
# the template's first paragraph is the cover letter's subject, the rest
# its body (git's branch description)
desc=$(sed -e "s|@KERNELVERSION@|$KVER|g" -e "s|@PACKAGE@|$PKG|g" "$TEMPLATE")
tgit config branch.export.description "$desc"
rm -rf "$OUT"
mkdir -p "$OUT"
# the cover letter is from the committer: the first patch's author
GIT_COMMITTER_NAME=${first_author% <*} \
	GIT_COMMITTER_EMAIL=$(sed -n 's/.*<\([^>]*\)>.*/\1/p' <<<"$first_author") \
	tgit format-patch -q --cover-letter --cover-from-description=subject \
	-o "$OUT" base..export
mapfile -t EXPORTED < <(cd "$OUT" && ls -1 -- *.patch)
log "wrote ${#EXPORTED[@]} files to ${OUT#"$REPO"/}/ in $((SECONDS - T0)) s"

# ---------------------------------------------------------------- checkpatch
tot_e=0 tot_w=0 tot_c=0
for e in "${EXPORTED[@]}"; do
	res=$(cd "$T" && ./scripts/checkpatch.pl --strict "$OUT/$e" 2>&1) || true
	line=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' <<<"$res" | tail -n1)
	if [[ -z $line ]]; then
		echo "$res" >&2
		log "checkpatch $e: no summary line"
		FAIL=$((FAIL + 1))
		continue
	fi
	read -r _ ne _ nw _ nc _ <<<"$line"
	tot_e=$((tot_e + ne)) tot_w=$((tot_w + nw)) tot_c=$((tot_c + nc))
	if ((ne + nw + nc)); then
		echo "$res" >&2
		log "checkpatch $e: $ne errors, $nw warnings, $nc checks"
		FAIL=$((FAIL + 1))
	else
		log "checkpatch $e: clean (${line##*checks, })"
		PASS=$((PASS + 1))
	fi
done
log "checkpatch --strict: $tot_e errors, $tot_w warnings, $tot_c checks in ${#EXPORTED[@]} files"

# ---------------------------------------------------------------- git am
if ((CHECK)); then
	t=$SECONDS
	mapfile -t mails < <(printf '%s\n' "${EXPORTED[@]}" | grep -v -- '-cover-letter\.patch$')
	reset_to_base am
	if out=$(GIT_COMMITTER_NAME=am GIT_COMMITTER_EMAIL=am@localhost \
		tgit am -q --no-3way "${mails[@]/#/$OUT/}" 2>&1); then
		log "git am of ${#mails[@]} patches onto base: applied in $((SECONDS - t)) s"
		PASS=$((PASS + 1))
		if [[ $(tgit rev-parse 'am^{tree}') == "$(tgit rev-parse 'export^{tree}')" ]] &&
			diff <(tgit log --reverse --format='%an <%ae>%n%B' base..am) \
				<(tgit log --reverse --format='%an <%ae>%n%B' base..export) >&2; then
			log "git am's tree and messages are the export's"
			PASS=$((PASS + 1))
		else
			tgit diff --stat export am >&2 || true
			log "git am's result differs from the export"
			FAIL=$((FAIL + 1))
		fi
	else
		echo "$out" >&2
		log "git am FAILED"
		FAIL=$((FAIL + 1))
	fi
	# leave the tree at the export, for a look at it
	tgit am --abort >/dev/null 2>&1 || true
	tgit checkout -q -f export
	tgit clean -q -f -d -x
fi

log "done in $((SECONDS - T0)) s"
summary
((FAIL == 0))
