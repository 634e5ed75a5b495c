#!/bin/bash
# usage: run.sh <name> <s1|s2> <stop s> <extra ccc-table1 args...>
# e.g.   run.sh s1-hpcc s1 0.02 --algorithm=3 --wien=false
set -e
name=$1; scen=$2; stop=$3; shift 3
d=/work/ns3ref/ccc/runs/$name; mkdir -p $d
sed -e "s#mix/#$d/#g" -e "s#^ENABLE_TRACE 1#ENABLE_TRACE 0#" \
    -e "s#^TOPOLOGY_FILE .*#TOPOLOGY_FILE /work/ns3ref/ccc/topology-ccc250.txt#" \
    -e "s#^FLOW_FILE .*#FLOW_FILE /work/ns3ref/ccc/flow-$scen.txt#" \
    -e "s#^SIMULATOR_STOP_TIME .*#SIMULATOR_STOP_TIME $stop#" \
    /work/ns3ref/simulator/ns-3.39/examples/PowerTCP/config-burst.txt > $d/config.txt
echo "$0 $name $scen $stop $*" > $d/cmdline.txt
date -u +%FT%TZ > $d/started.txt
cd /work/ns3ref/simulator/ns-3.39
LD_LIBRARY_PATH=build/lib nice -n 10 setarch x86_64 -R /usr/bin/time -v /work/ns3ref/ccc/ccc-table1 --conf=$d/config.txt --outDir=$d --windowCheck=1 "$@" > $d/stdout.txt 2> $d/stderr.txt
echo "rc=$?" >> $d/stderr.txt
