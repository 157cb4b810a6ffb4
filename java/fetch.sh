#!/usr/bin/env bash
# Fetch the pinned Java libraries of java/pom.xml into .cache/java/<set>/ and
# check every jar against java/jars.sha256. A set whose jars already match is
# not fetched again, so after the first run nothing goes to the network.
#   java/fetch.sh            fetch what is missing, verify everything
#   java/fetch.sh --pin      rewrite java/jars.sha256 from what is in .cache/java
#                            (after a version change in pom.xml, reviewed by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
SETS=(jacorb glassfish harness build)
SUMS=java/jars.sha256

listed() {  # the jars jars.sha256 lists for set $1, sorted
  awk -v set="$1/" 'index($2, set) == 1 { sub(".*/", "", $2); print $2 }' "$SUMS" | sort
}
present() {  # the jars in .cache/java/$1, sorted
  (cd ".cache/java/$1" 2>/dev/null && ls -1 -- *.jar 2>/dev/null | sort) || true
}
fetch() {
  rm -rf ".cache/java/$1"
  # -C: a checksum from Maven Central that does not match fails the download.
  # -XX:-UsePerfData: the JVM leaves no /tmp/hsperfdata_* behind.
  MAVEN_OPTS="-XX:-UsePerfData" mvn -q -B -C -Dstyle.color=never -f java/pom.xml -P"$1" \
    dependency:copy-dependencies -DoutputDirectory="$PWD/.cache/java/$1"
}

if [ "${1:-}" = --pin ]; then
  for set in "${SETS[@]}"; do fetch "$set"; done
  (cd .cache/java && sha256sum -- */*.jar) | grep -E "^[0-9a-f]+  ($(IFS='|'; echo "${SETS[*]}"))/" > "$SUMS"
  echo "java/fetch.sh: pinned $(wc -l < "$SUMS") jars in $SUMS"
  exit 0
fi

for set in "${SETS[@]}"; do
  if [ "$(present "$set")" != "$(listed "$set")" ]; then
    echo "java/fetch.sh: fetching the $set jars"
    fetch "$set"
    if [ "$(present "$set")" != "$(listed "$set")" ]; then
      echo "java/fetch.sh: error: .cache/java/$set holds other jars than $SUMS lists:" >&2
      diff <(listed "$set") <(present "$set") >&2 || true
      exit 1
    fi
  fi
done
(cd .cache/java && sha256sum --quiet --strict -c -) < "$SUMS" || {
  echo "java/fetch.sh: error: a jar in .cache/java differs from $SUMS" >&2; exit 1; }
