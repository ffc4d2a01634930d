#!/bin/bash
# Refresh patches/new-files/ after an edit of a file that the series adds.
#
#   tools/refresh-new-files.sh [REV]
#
# patches/new-files/NAME holds the hunks that patch NAME makes to a file an
# earlier patch adds (tools/export-series.sh). An edit of such a file in
# the repo can leave those hunks stale, and export-series.sh then says
# that they "do not come out of the repo's file". This rewrites them.
#
# For each new file with later hunks, with REV (default HEAD) the last
# commit where the hunks matched the file:
# 1. the file's versions after each patch at REV: REV's file, then the
#    later patches' hunks taken out of it one by one (git apply -R), the
#    last patch first
# 2. the same versions for the edited file: each earlier version is the
#    edited later one with what REV's versions differ by taken out again,
#    a three-way merge (git merge-file). An edit inside a later patch's
#    hunks stays with that patch: a conflict goes to the earlier version
#    without the hunk (--theirs)
# 3. each patch's hunks on the file are the diff between the versions
#    before and after it
#
# Review the result with `git diff patches/new-files/` and check it with
# tools/export-series.sh --check. The last line is "N files refreshed,
# N unchanged".
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
REV=${1:-HEAD}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
die() { echo "refresh-new-files: ERROR: $*" >&2; exit 1; }
cd "$REPO"
git rev-parse -q --verify "$REV^{commit}" >/dev/null || die "$REV is not a commit"

mapfile -t PATCHES < <(sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' series)
# the patches with hunks on new files, in series order, and the files
NAMES=() FILES=()
declare -A SEEN=()
for p in "${PATCHES[@]}"; do
	[[ -f patches/new-files/$p ]] || continue
	git cat-file -e "$REV:patches/new-files/$p" 2>/dev/null ||
		die "patches/new-files/$p is not in $REV: refresh from a commit that has it"
	NAMES+=("$p")
	while read -r f; do
		[[ -n ${SEEN[$f]-} ]] || { SEEN[$f]=1; FILES+=("$f"); }
	done < <(git show "$REV:patches/new-files/$p" | sed -n -E 's|^diff --git a/([^ ]*) b/.*|\1|p')
done
((${#NAMES[@]})) || { echo "0 files refreshed"; exit 0; }

n=0
for f in "${FILES[@]}"; do
	key=${f//\//_}
	# the patches that change f, in series order
	mine=()
	for p in "${NAMES[@]}"; do
		# a file, not a pipe: grep -q could end before git show does
		git show "$REV:patches/new-files/$p" >"$W/hunks"
		grep -qxF "diff --git a/$f b/$f" "$W/hunks" && mine+=("$p")
	done
	k=${#mine[@]}
	if git show "$REV:$f" | cmp -s - "$f"; then
		# not edited since REV: its hunks stay as they are
		for p in "${mine[@]}"; do
			git show "$REV:patches/new-files/$p" | awk -v h="diff --git a/$f b/$f" '
				/^diff --git / { on = ($0 == h) } on && !/^diff --git / { print }' \
				>"$W/part.$p.$key"
		done
		continue
	fi
	# versions: v<i> is f before mine[i] (i = 0..k-1), v<k> after the last
	git show "$REV:$f" >"$W/old.$key.$k"
	cp "$f" "$W/new.$key.$k"
	for ((i = k - 1; i >= 0; i--)); do
		cp "$W/old.$key.$((i + 1))" "$W/old.$key.$i"
		git show "$REV:patches/new-files/${mine[$i]}" >"$W/hunks"
		(cd "$W" && mkdir -p "$(dirname "$f")" && cp "old.$key.$i" "$f" &&
			git apply -R --include="$f" hunks && cp "$f" "old.$key.$i") ||
			die "the hunks of ${mine[$i]} do not come out of $f at $REV"
		cp "$W/new.$key.$((i + 1))" "$W/new.$key.$i"
		git merge-file -q --theirs "$W/new.$key.$i" "$W/old.$key.$((i + 1))" "$W/old.$key.$i" ||
			die "merging the edit of $f into the version before ${mine[$i]} failed"
		diff -u --label "a/$f" --label "b/$f" "$W/new.$key.$i" "$W/new.$key.$((i + 1))" \
			>"$W/part.${mine[$i]}.$key" || [[ $? == 1 ]] ||
			die "diff failed for $f"
	done
	n=$((n + 1))
done

# each patch's file: its parts in the order of FILES, all made before any
# is written, so that a failure leaves patches/new-files/ as it was
for p in "${NAMES[@]}"; do
	out=$W/out.$p
	: >"$out"
	for f in "${FILES[@]}"; do
		part=$W/part.$p.${f//\//_}
		[[ -s $part ]] || continue
		echo "diff --git a/$f b/$f" >>"$out"
		# a blank context line as an empty line, as in patches/: git
		# apply and quilt take it, and checkpatch sees no trailing space
		sed 's/^ $//' "$part" >>"$out"
	done
	[[ -s $out ]] || die "$p would have no hunk left: take it out of patches/new-files/ by hand"
done
for p in "${NAMES[@]}"; do
	cp "$W/out.$p" "patches/new-files/$p"
done
echo "$n files refreshed, $((${#FILES[@]} - n)) unchanged"
