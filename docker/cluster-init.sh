#!/bin/sh
# Joins Redis nodes into one cluster of masters, once, and waits until it serves every slot.
#   cluster-init.sh HOST:PORT HOST:PORT HOST:PORT ...
# Run by docker-compose.yml's "cluster" profile before the API and the worker start. Run again
# (a restarted compose), it finds the cluster made and only waits for it.
set -eu
first_host=${1%:*}
first_port=${1##*:}

for node in "$@"; do
    until redis-cli -h "${node%:*}" -p "${node##*:}" ping >/dev/null 2>&1; do
        echo "waiting for $node"
        sleep 0.5
    done
done

state() {
    redis-cli -h "$first_host" -p "$first_port" cluster info | tr -d '\r' | grep '^cluster_state:'
}

if [ "$(redis-cli -h "$first_host" -p "$first_port" cluster info | tr -d '\r' |
        grep '^cluster_known_nodes:')" = "cluster_known_nodes:1" ]; then
    redis-cli --cluster create "$@" --cluster-replicas 0 --cluster-yes
fi

tries=0
until [ "$(state)" = "cluster_state:ok" ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 120 ]; then
        echo "the cluster did not reach cluster_state:ok" >&2
        exit 1
    fi
    sleep 0.5
done
echo "cluster ready: $*"
