#!/usr/bin/env python3
"""Bad-input matrix of the reps examples: every option of every example, given invalid values.

For each example the options are read from its --PrintHelp ("Program Options"); every option
must have a kind below (a count, a fraction, a time, a rate, a size, a choice, ...), and each
kind gives the values it must reject (wrong type, negative, out of range, absurdly large,
empty). A table of hand-written cases adds the values that are only wrong together with other
options (--ecnKmin above --ecnKmax, --stopTime before --startTime, --degradeLeaf beyond the
leaves, ...) and the flow-size distribution files (--cdf) that must be rejected.

Every case must end with a non-zero exit status below 128 (not a signal: an abort or a
segfault fails the case) within a few seconds, and print a message that names the option (or
the file and line) and says what is allowed. Each example runs on a tiny fabric, so that a
value wrongly accepted still gives a short run.

Usage:
  check-bad-inputs.py EXAMPLES_DIR [--jobs N] [--timeout SECONDS] [--only EXAMPLE] [--list]

  EXAMPLES_DIR  folder holding the built examples (reps-lb-comparison, reps-two-host, ...)
  --jobs        cases run in parallel (default 2)
  --timeout     seconds a case may take (default 5)
  --only        run the cases of one example
  --list        print the cases without running them

Prints one line per failed case and "N passed, M failed"; exit status 0 when none failed.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Options appended first to every run of an example: a tiny fabric and workload, so that a bad
# value that is wrongly accepted still runs in well under a second. A case's own options come
# after them and win.
TINY = {
    "reps-lb-comparison": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                           "--lb=ecmp", "--stopTime=1ms", "--quiet"],
    "reps-asymmetric": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                        "--lb=ecmp", "--degradedLinks=1", "--stopTime=1ms", "--quiet"],
    "reps-link-failure": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                          "--lb=ecmp", "--failedLinks=1", "--stopTime=1ms", "--quiet"],
    "reps-custom-selector": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                             "--lb=rrskip", "--stopTime=1ms", "--quiet"],
    "reps-custom-switch-lb": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2",
                              "--flowSize=64KiB", "--forwardingList=drill", "--stopTime=1ms",
                              "--quiet"],
    "reps-collective-bench": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--sizes=64KiB",
                              "--lb=ecmp", "--stopTime=1ms", "--quiet"],
    "reps-ai-training": ["--gpusPerServer=2", "--leaves=2", "--hostsPerLeaf=2", "--spines=2",
                         "--arms=ecmp", "--stopTime=1ms", "--quiet"],
    "reps-allreduce": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--pods=2", "--cores=2",
                       "--tierList=2", "--flowSize=64KiB", "--lb=ecmp", "--stopTime=1ms",
                       "--quiet"],
    "reps-switch-lb": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                       "--schemes=dlb", "--scenarios=symmetric", "--stopTime=1ms", "--quiet"],
    "reps-planes": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=64KiB",
                    "--lb=ecmp", "--stopTime=1ms"],
    "reps-fabric-summary": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--duration=5us"],
    "reps-two-host": ["--size=65536"],
    "reps-path-selector-trace": ["--packets=4", "--quiet"],
    "reps-ns3-baseline": ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=16KiB"],
}

# Invalid values per kind of option.
COUNT = ["-1", "1.5", "abc", "", "1e30", "99999999999999999999"]
KIND_VALUES = {
    "count": COUNT,
    "positive": COUNT + ["0"],
    "index": ["abc", "1.5", "", "99999999999999999999", "-2", "4096"],
    "bool": ["maybe", "2", "yes please"],
    "fraction": ["abc", "nan", "-0.5", "1.5", "1e30", ""],
    "number": ["abc", "nan", "-0.5", "1e30", ""],
    "time": ["soon", "-5us", "99999999999999999999s", "1fs", "1e30s", ""],
    "rate": ["fast", "0bps", "-1Gbps", "99999999999999999999Gbps", "400", ""],
    "size": ["-1", "big", "1.5B", "99999999999999999999TiB", "1e30", ""],
    "choice": ["bogus", "", "1"],
    "forwarding": ["bogus", "", "1", "ns3::Object", "ns3::PortSelector", "ns3::EcmpPathSelector"],
    "forwardings": ["bogus", "", ",", "hash,bogus", "ns3::Object"],
    "path": ["/nonexistent-dir/out.txt"],
    "selectors": ["foo", "ns3::Object", "", "ecmp,", "ecmp,ecmp"],
    "selector": ["foo", "ns3::Object", "ns3::Node", ""],
    "cc": ["cubic", "ns3::Object", ""],
    "tcp": ["TcpFoo", "ns3::Object", "ns3::TcpSocketBase"],
    "cdf": ["nosuchdistribution", "/nonexistent-dir/sizes.cdf"],
    "tierList": ["4", "", "abc", "2,,3", "2,2"],
    "prefix": ["/nonexistent-dir/cap", "/"],
    "failures": ["/nonexistent-dir/failures.txt", "/"],
    "nodes": ["", ",", "host0,,leaf0", "nosuchnode", "host99999", "host01", "spine-1", "agg0.0"],
    "snaplen": ["abc", "-1", "10", "63", "65536", "99999999999999999999", ""],
    # MPI ranks: out of range (the tiny fabrics have 2 leaves), and 2 ranks in one process
    # (refused without the MPI engine, and by it when mpirun did not start 2 processes).
    "arms": ["", ",", "foo", "ecmp-qp0", "ecmp-qp129", "ecmp-qpx", "ecmp,ecmp", "ns3::Object"],
    "systems": ["0", "-1", "abc", "", "1.5", "3", "2", "99999999999999999999"],
}

# The kind of every option, per example (None: any example). An option found in --PrintHelp
# without a kind fails the run: a new option needs its bad values here.
KINDS = {
    None: {
        "lb": "selectors", "tiers": "positive", "leaves": "count",
        "hostsPerLeaf": "count", "spines": "count", "pods": "count", "cores": "count",
        "linkRate": "rate", "linkDelay": "time", "mtu": "positive", "queuePackets": "positive",
        "ecnKmin": "count", "ecnKmax": "count", "forwarding": "forwarding", "trim": "bool",
        "dlbTimeout": "time", "dlbTableSize": "count", "trimMode": "choice",
        "trimSize": "count",
        "markOn": "choice", "controlPriority": "bool", "lastHopEcn": "bool",
        "lastHopNacks": "choice", "baseRtt": "choice", "rto": "time",
        "minRto": "time", "rtoBackoff": "bool", "ackEvery": "positive",
        "ackEveryBytes": "size", "ackDelay": "time", "opsVariant": "choice", "freezing": "bool",
        "freezeDuration": "time", "cc": "cc", "credits": "bool", "pattern": "choice", "flowSize": "size",
        "load": "fraction", "duration": "time", "cdf": "cdf", "incastSenders": "count",
        "qpsPerPeer": "positive", "connections": "choice", "ring": "choice", "background": "fraction",
        "backgroundSize": "size", "tcpBackground": "fraction", "tcpBackgroundSize": "size",
        "tcpMinRto": "time", "tcpVariant": "tcp", "degradedLinks": "count",
        "degradedRate": "rate", "degradeLeaf": "index", "failedLinks": "count",
        "failAt": "time", "failFor": "time", "failGap": "time", "failLeaf": "index",
        "reconverge": "time", "failedCables": "fraction", "cableFailStart": "time",
        "cableFailPeriod": "time", "failureFile": "failures", "evSpace": "positive", "RngRun": "count",
        "startTime": "time", "stopTime": "time", "sampleInterval": "time", "json": "path",
        "csv": "path", "quiet": "bool", "binWidth": "time", "tierList": "tierList",
        "pcap": "prefix", "pcapNodes": "nodes", "pcapSnapLen": "snaplen",
        "linkSeries": "bool",
        "pfc": "bool", "pfcMode": "choice", "pfcAlpha": "number", "pfcThreshold": "size",
        "pfcBuffer": "size", "planes": "positive",
        "iterations": "positive", "computeTime": "time", "collective": "choice",
        "jobs": "positive", "jobLayout": "choice", "traceFile": "path",
        "chakraTrace": "path",
        "systems": "systems",
        "outcastFlows": "count", "slowLinks": "count", "slowLinkFactor": "fraction",
        "traceStartUnit": "choice",
        "ncclOperation": "choice", "ncclAlgorithm": "choice", "ncclChannels": "positive",
        "ncclChunkBytes": "size", "ncclChunkSteps": "positive", "ncclSlots": "positive",
        "qpsPerConnection": "positive", "splitDataOnQps": "bool", "ncclRoot": "count",
        "ncclAllToAllWindow": "count", "ncclPxn": "bool",
        "gpusPerServer": "positive", "scaleUpRate": "rate", "scaleUpDelay": "time",
        "wiring": "choice",
        "chakraPeakFlops": "number", "chakraMemoryBandwidth": "number",
    },
    "reps-fabric-summary": {
        "fatTreeK": "count", "parallel": "positive", "hostRate": "rate",
        "oversubscription": "number", "packetSize": "positive", "seed": "count",
        "hostLinks": "bool", "leaves": "positive", "hostsPerLeaf": "positive",
        "spines": "positive", "pods": "positive", "cores": "positive",
    },
    "reps-two-host": {
        "size": "positive", "messages": "positive", "rate": "rate", "delay": "time",
        "selector": "selector", "dropRate": "fraction", "goBackN": "bool",
        "pcap": "prefix", "ascii": "path",
    },
    "reps-collective-bench": {
        "sizes": "size",
    },
    "reps-ai-training": {
        "arms": "arms", "step": "choice", "layers": "positive", "layerBytes": "size",
        "layerTime": "time", "steps": "positive", "expertBytes": "size",
        "expertParallel": "count", "writeTrace": "prefix",
    },
    "reps-switch-lb": {
        "schemes": "choice", "scenarios": "choice", "downlinkRate": "rate",
    },
    "reps-custom-switch-lb": {
        "forwardingList": "forwardings",
    },
    "reps-ns3-baseline": {
        "tiers": "positive", "leaves": "positive", "hostsPerLeaf": "positive",
        "spines": "positive", "pods": "positive", "cores": "positive", "packetSize": "positive",
        "queuePackets": "positive",
    },
    "reps-path-selector-trace": {
        "selector": "selector", "packets": "positive", "ecnEvery": "count",
        "timeoutAt": "count",
    },
}

# Hand-written cases: (example, options, regular expression the message must match). They
# cover values that are wrong only next to other options, and limits the kinds do not know.
ALLOWED = r"(allowed|expected|must|at most|at least|is not (a|an)\b|too large|too small)"
CASES = [
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=allgather", "--flowSize=1001"], r"--flowSize: bytes = 1001 for allgather; allowed: a multiple of the 4 ranks"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=broadcast", "--ncclRoot=4"], r"--ncclRoot: root = 4; allowed: 0 to 3"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=alltoall", "--ncclAllToAllWindow=4"], r"--ncclAllToAllWindow: allToAllWindow = 4; allowed: 0 \(all\) to 3"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=gather", "--flowSize=1001"], r"--flowSize: bytes = 1001 for gather; allowed: a multiple of the 4 ranks"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=reduce", "--ncclRoot=4"], r"--ncclRoot: root = 4; allowed: 0 to 3"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=scatter", "--ncclAlgorithm=hierarchical"], r"--ncclAlgorithm: algorithm = hierarchical for scatter; allowed: hierarchical for allreduce, allgather and reducescatter"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclOperation=gather", "--ncclAllToAllWindow=4"], r"--ncclAllToAllWindow: allToAllWindow = 4; allowed: 0 \(all\) to 3"),
    ("reps-lb-comparison", ["--pattern=nccl", "--ncclAlgorithm=tree", "--ncclOperation=allgather"], r"--ncclAlgorithm: algorithm = tree for allgather; allowed: tree for allreduce only"),
    ("reps-lb-comparison", ["--ecnKmin=90"], r"--ecnKmax: 80 is out of range; expected .*\[90, 100\]"),
    ("reps-lb-comparison", ["--ecnKmin=20", "--ecnKmax=20"], r"--ecnKmax: 20 must be above --ecnKmin \(20\); allowed: 21 to"),
    ("reps-lb-comparison", ["--ecnKmax=101"], r"--ecnKmax: 101 is out of range; expected .*\[20, 100\]"),
    ("reps-lb-comparison", ["--startTime=5us", "--stopTime=1us"], r"--stopTime: must be later than --startTime"),
    ("reps-lb-comparison", ["--degradeLeaf=2"], r"--degradeLeaf: 2 is out of range; expected .*\[-1, 1\]"),
    ("reps-lb-comparison", ["--failLeaf=7"], r"--failLeaf: 7 is out of range; expected .*\[-1, 1\]"),
    ("reps-lb-comparison", ["--degradedLinks=5"], r"--degradedLinks: 5 is out of range; expected .*\[0, 4\]"),
    ("reps-lb-comparison", ["--failLeaf=0", "--failedLinks=3"], r"--failedLinks: 3 is out of range; expected .*\[0, 2\]"),
    ("reps-lb-comparison", ["--mtu=9001"], r"--mtu: 9001 is out of range; expected .*\[64, 9000\]"),
    ("reps-lb-comparison", ["--mtu=63"], r"--mtu: 63 is out of range"),
    ("reps-lb-comparison", ["--queuePackets=1000001"], r"--queuePackets: 1e\+06|--queuePackets: 1000001 is out of range"),
    ("reps-lb-comparison", ["--pfcThreshold=512"], r"--pfcThreshold: 512 is out of range; allowed: 1KiB to 1GiB"),
    ("reps-lb-comparison", ["--pfcBuffer=1023"], r"--pfcBuffer: 1023 is out of range; allowed: 1KiB to 1GiB"),
    ("reps-lb-comparison", ["--pfcBuffer=2GiB"], r"--pfcBuffer: 2GiB is out of range; allowed: 1KiB to 1GiB"),
    ("reps-lb-comparison", ["--pfcThreshold=1025MiB"], r"--pfcThreshold: 1025MiB is out of range; allowed: 1KiB to 1GiB"),
    ("reps-lb-comparison", ["--pfcAlpha=0.001"], r"--pfcAlpha: 0.001 is out of range; expected .*\[0.0078125, 64\]"),
    ("reps-lb-comparison", ["--pfcAlpha=65"], r"--pfcAlpha: 65 is out of range; expected .*\[0.0078125, 64\]"),
    ("reps-lb-comparison", ["--evSpace=0"], r"--evSpace: 0 is out of range; expected .*\[1, 65536\]"),
    ("reps-lb-comparison", ["--evSpace=65537"], r"--evSpace: 65537 is out of range"),
    ("reps-lb-comparison", ["--evSpace=1", "--lb=bitmap"], r"--evSpace: 1 is too small for bitmap.*Paths.*allowed"),
    ("reps-lb-comparison", ["--evSpace=64", "--lb=ops,mrc"], r"--evSpace: 64 is too small for mrc.*PathCount.*allowed with mrc: 128 to 65536"),
    ("reps-lb-comparison", ["--evSpace=4", "--lb=ops,mp"], r"--evSpace: 4 is too small for mp.*allowed with mp: 8 to 65536"),
    ("reps-lb-comparison", ["--tiers=4"], r"--tiers: 4 is not allowed; allowed: 2"),
    ("reps-lb-comparison", ["--gpusPerServer=65"], r"--gpusPerServer: 65 is out of range"),
    ("reps-lb-comparison", ["--gpusPerServer=3"], r"fabric \(.*--gpusPerServer.*\): HostsPerLeaf \(2\) must be a multiple of GpusPerServer \(3\)"),
    ("reps-lb-comparison", ["--gpusPerServer=2", "--wiring=railoptimised", "--leaves=3"], r"fabric \(.*\): Leaves \(3\) must be a multiple of GpusPerServer \(2\) with Wiring RailOptimised"),
    ("reps-lb-comparison", ["--gpusPerServer=2", "--wiring=railonly", "--leaves=4"], r"fabric \(.*\): Leaves \(4\) must equal GpusPerServer \(2\) with Wiring RailOnly"),
    ("reps-lb-comparison", ["--gpusPerServer=2", "--pfc=true"], r"Pfc needs GpusPerServer = 1"),
    ("reps-lb-comparison", ["--tiers=3", "--pods=2", "--spines=3", "--cores=4"], r"fabric \(--tiers.*--cores.*\): Cores \(4\) must be a multiple"),
    ("reps-lb-comparison", ["--tiers=3", "--pods=4096", "--leaves=4096", "--hostsPerLeaf=4096"], r"--hosts \(pods x leaves x hostsPerLeaf\): .* out of range"),
    ("reps-lb-comparison", ["--leaves=4096", "--hostsPerLeaf=4096"], r"--hosts \(leaves x hostsPerLeaf\): .* out of range"),
    ("reps-lb-comparison", ["--hostsPerLeaf=1", "--leaves=1"], r"--hosts .*1 is out of range; expected a value in \[2,"),
    ("reps-lb-comparison", ["--flowSize=0"], r"--flowSize: '0' is 0 bytes; it must be at least 1 byte"),
    ("reps-lb-comparison", ["--flowSize=1.5B"], r"--flowSize: '1.5B' is not a whole number of bytes"),
    ("reps-lb-comparison", ["--pattern=allreduce", "--flowSize=3"], r"--flowSize: allreduce needs at least one byte per host \(4 bytes\)"),
    ("reps-lb-comparison", ["--pattern=alltoall", "--qpsPerPeer=8", "--flowSize=4"], r"--flowSize: alltoall needs at least one byte per queue pair"),
    ("reps-lb-comparison", ["--pattern=allgather", "--flowSize=3"], r"--flowSize: allgather needs at least one byte per host \(4 bytes\)"),
    ("reps-lb-comparison", ["--pattern=training", "--collective=butterfly", "--flowSize=2"], r"--flowSize: butterfly needs at least one byte per host \(4 bytes\)"),
    ("reps-lb-comparison", ["--pattern=butterfly", "--hostsPerLeaf=3"], r"--pattern: butterfly needs a power-of-two number of hosts, not 6; allowed: 2, 4, 8, 16"),
    ("reps-lb-comparison", ["--pattern=training", "--collective=butterfly", "--leaves=3"], r"--collective: butterfly needs a power-of-two number of hosts, not 6; allowed"),
    ("reps-lb-comparison", ["--iterations=100001"], r"--iterations: 100001 is out of range; expected .*\[1, 100000\]"),
    ("reps-lb-comparison", ["--computeTime=11s"], r"--computeTime: 11s is out of range; allowed: a Time in \[0, 10s\]"),
    ("reps-lb-comparison", ["--collective=ring"], r"--collective: .*allowed: allreduce, allgather, reducescatter, butterfly, alltoall"),
    ("reps-lb-comparison", ["--pattern=allreduce", "--jobs=3"], r"--jobs: 3 is out of range; expected .*\[1, 2\]"),
    ("reps-lb-comparison", ["--jobs=2"], r"--jobs: permutation is not a collective; allowed with it: 1"),
    ("reps-lb-comparison", ["--pattern=butterfly", "--hostsPerLeaf=3", "--jobs=2"], r"--jobs: pattern=butterfly needs a power-of-two number of hosts in every job, not 3 \(6 hosts in 2 jobs\); allowed"),
    ("reps-lb-comparison", ["--pattern=training", "--collective=butterfly", "--leaves=3", "--hostsPerLeaf=4", "--jobs=2"], r"--jobs: collective=butterfly needs a power-of-two number of hosts in every job, not 6 \(12 hosts in 2 jobs\)"),
    ("reps-lb-comparison", ["--pattern=trace"], r"--traceFile: --pattern=trace needs a trace file; allowed: the path of a readable flow trace"),
    ("reps-lb-comparison", ["--pattern=trace", "--traceFile=/nonexistent-dir/x.trace"], r"--traceFile: /nonexistent-dir/x.trace: cannot read the file"),
    ("reps-lb-comparison", ["--traceFile=/nonexistent-dir/x.trace"], r"--traceFile: only used by --pattern=trace; allowed"),
    ("reps-lb-comparison", ["--pattern=chakra"], r"--chakraTrace: --pattern=chakra needs a trace; allowed: the prefix PREFIX of readable files"),
    ("reps-lb-comparison", ["--pattern=chakra", "--chakraTrace=/nonexistent-dir/x"], r"--chakraTrace: /nonexistent-dir/x.0.et: cannot read"),
    ("reps-lb-comparison", ["--chakraTrace=/nonexistent-dir/x"], r"--chakraTrace: only used by --pattern=chakra; allowed"),
    ("reps-lb-comparison", ["--pattern=trace", "--traceFile={tmp}"], r"--traceFile: .*(cannot read|line 1|no flows)"),
    ("reps-lb-comparison", ["--qpsPerPeer=1025"], r"--qpsPerPeer: 1025 is out of range; expected .*\[1, 1024\]"),
    ("reps-lb-comparison", ["--pattern=incast", "--incastSenders=4"], r"--incastSenders: 4 is out of range; expected .*\[1, 3\]"),
    ("reps-lb-comparison", ["--pattern=incast", "--incastSenders=0"], r"--incastSenders: 0 is out of range"),
    ("reps-lb-comparison", ["--pattern=outcastincast", "--incastSenders=4"], r"--incastSenders: 4 is out of range; expected .*\[1, 3\]"),
    ("reps-lb-comparison", ["--pattern=outcastincast", "--incastSenders=2", "--outcastFlows=2"], r"--outcastFlows \(with --incastSenders=2 on 4 hosts\): 2 is out of range; expected .*\[0, 1\]"),
    ("reps-lb-comparison", ["--slowLinks=3"], r"--slowLinks \(2 tiers: up to --spines spines\): 3 is out of range; expected .*\[0, 2\]"),
    ("reps-lb-comparison", ["--tiers=3", "--pods=2", "--cores=4", "--slowLinks=9"], r"--slowLinks \(3 tiers: up to pods x cores agg-core links\): 9 is out of range; expected .*\[0, 8\]"),
    ("reps-lb-comparison", ["--slowLinks=1", "--planes=2"], r"--slowLinks: 1 with --planes=2 is not supported; allowed: --planes=1"),
    ("reps-lb-comparison", ["--slowLinkFactor=0"], r"--slowLinkFactor: 0 is out of range"),
    ("reps-lb-comparison", ["--pattern=websearch", "--duration=0"], r"--duration: must be greater than zero for websearch"),
    ("reps-lb-comparison", ["--pattern=websearch", "--load=0"], r"--load: 0 is out of range; expected a value in \(0, 1\]"),
    ("reps-lb-comparison", ["--pattern=websearch", "--load=1", "--duration=100s"], r"--duration, --load, --cdf: about .* flows would arrive.*allowed: at most 10000000"),
    ("reps-lb-comparison", ["--stopTime=10ms", "--sampleInterval=1ns"], r"--sampleInterval: 1ns gives more than 1000000 samples.*allowed"),
    ("reps-lb-comparison", ["--tcpMinRto=0"], r"--tcpMinRto: must be > 0"),
    ("reps-lb-comparison", ["--rto=0"], r"--rto: 0 is out of range; allowed: reference, basertt, or a Time in \(0, 10s\]"),
    ("reps-lb-comparison", ["--rto=11s"], r"--rto: 11s is out of range; allowed"),
    ("reps-lb-comparison", ["--rto=soon"], r"--rto \(reference, basertt or a Time\): 'soon' is not a time"),
    ("reps-lb-comparison", ["--minRto=11s"], r"--minRto: 11s is out of range; allowed: a Time, 0 to 10s"),
    ("reps-ns3-baseline", ["--tiers=3", "--spines=3", "--cores=4"], r"--cores: 4 is not allowed; allowed: a multiple of --spines \(3\)"),
    ("reps-ns3-baseline", ["--packetSize=9000"], r"--packetSize: 9000 is out of range"),
    ("reps-lb-comparison", ["--planes=9"], r"--planes: 9 is out of range; expected a value in \[1, 8\]"),
    ("reps-lb-comparison", ["--planes=0"], r"--planes: 0 is out of range; expected a value in \[1, 8\]"),
    ("reps-lb-comparison", ["--planes=2", "--pfc=true"], r"--planes: 2 planes with --pfc=true is not supported; allowed: --planes=1 with --pfc, or --pfc=false"),
    ("reps-planes", ["--planes=9"], r"--planes: 9 is out of range"),
    ("reps-planes", ["--failedLinks=1"], r"--failureFile, --failedLinks: set by the scenarios of reps-planes; allowed: leave them out"),
    ("reps-lb-comparison", ["--ackEvery=0"], r"--ackEvery: 0 is out of range; expected .*\[1, 65536\]"),
    ("reps-lb-comparison", ["--ackEvery=65537"], r"--ackEvery: 65537 is out of range"),
    ("reps-lb-comparison", ["--ackEveryBytes=2GiB"], r"--ackEveryBytes: 2GiB is out of range; allowed: 0 to 1GiB"),
    ("reps-lb-comparison", ["--ackDelay=2s"], r"--ackDelay: 2s is out of range; allowed: a Time, 0 to 1s"),
    ("reps-lb-comparison", ["--freezeDuration=0"], r"--freezeDuration: 0 is out of range; allowed: a Time, 1ns to 1s"),
    ("reps-lb-comparison", ["--freezeDuration=2s"], r"--freezeDuration: 2s is out of range"),
    ("reps-lb-comparison", ["--reconverge=nevermore"], r"--reconverge: 'nevermore' is not a time"),
    ("reps-lb-comparison", ["--linkRate=400"], r"--linkRate: '400' has no unit; expected a rate"),
    ("reps-lb-comparison", ["--linkRate=0bps"], r"--linkRate: '0bps' must be greater than zero"),
    ("reps-lb-comparison", ["--linkRate=100000000000000Gbps"], r"--linkRate: .* is too large; at most 1000000Gbps"),
    ("reps-lb-comparison", ["--linkDelay=99999999999999999999s"], r"--linkDelay: .* is too large; at most"),
    ("reps-lb-comparison", ["--linkDelay=1fs"], r"--linkDelay: '1fs' is shorter than the simulator's time resolution; allowed: 0 or at least 1ns"),
    ("reps-lb-comparison", ["--leaves=1.5"], r"--leaves: '1.5' is not a whole number in \[0, 4294967295\]"),
    ("reps-lb-comparison", ["--leaves=1e30"], r"--leaves: '1e30' is not a whole number"),
    ("reps-lb-comparison", ["--leaves=-1"], r"--leaves: '-1' is not a whole number"),
    ("reps-lb-comparison", ["--trim=maybe"], r"--trim: 'maybe' is not a boolean; allowed: true, false"),
    ("reps-lb-comparison", ["--load=nan"], r"--load: 'nan' is not a finite number"),
    ("reps-lb-comparison", ["--RngRun=99999999999999999999"], r"--RngRun: '99999999999999999999' is not a whole number in \[0, 18446744073709551615\]"),
    ("reps-lb-comparison", ["--lb="], r"--lb: .*allowed: bitmap, ecmp"),
    ("reps-lb-comparison", ["--lb=ecmp,ecmp"], r"--lb: 'ecmp' is listed twice; each path selector is allowed once"),
    ("reps-lb-comparison", ["--tcpVariant=TcpFoo"], r"--tcpVariant: 'TcpFoo' is not a TCP congestion control"),
    ("reps-lb-comparison", ["--json=/nonexistent-dir/x.json"], r"--json: cannot write '/nonexistent-dir/x.json'; allowed: the path of a writable file"),
    ("reps-lb-comparison", ["--csv={tmp}"], r"--csv: cannot write"),
    ("reps-ai-training", ["--pattern=permutation"], r"--pattern: permutation is not used by reps-ai-training; allowed: chakra"),
    ("reps-ai-training", ["--lb=reps"], r"--lb: not used by reps-ai-training; allowed: leave it out and give the arms to --arms"),
    ("reps-ai-training", ["--expertParallel=2"], r"--expertParallel: not used by --step=dp; allowed: leave it out"),
    ("reps-ai-training", ["--step=moe", "--layers=1"], r"--layers: not used by --step=moe"),
    ("reps-ai-training", ["--step=moe", "--expertParallel=3"], r"--expertParallel: 3; allowed: 0 \(all 4 ranks\) or a divisor"),
    ("reps-ai-training", ["--layerTime=1500ns"], r"--layerTime: 1500ns is out of range; allowed: whole microseconds"),
    ("reps-ai-training", ["--chakraTrace=/nonexistent-dir/t", "--layers=3"], r"--layers: only used by the built-in step"),
    ("reps-ai-training", ["--ncclAlgorithm=hierarchical", "--step=moe"], r"--chakraTrace: .*its alltoall cannot run: algorithm = hierarchical for alltoall; allowed: hierarchical for allreduce"),
    ("reps-ai-training", ["--forwarding=dlb"], r"--forwarding: not used by reps-ai-training; allowed: leave it out"),
    ("reps-ai-training", ["--qpsPerConnection=4"], r"--qpsPerConnection: not used by reps-ai-training; allowed: leave it out"),
    ("reps-collective-bench", ["--pattern=permutation"], r"--pattern: permutation is not used by reps-collective-bench; allowed: nccl"),
    ("reps-collective-bench", ["--sizes=,"], r"--sizes: '' is not a size in bytes"),
    ("reps-collective-bench", ["--flowSize=1MiB"], r"--flowSize: not used by reps-collective-bench; allowed: leave it out"),
    ("reps-collective-bench", ["--sizes=1MiB,x"], r"--sizes: 'x'"),
    ("reps-allreduce", ["--tiers=3"], r"--tiers: not used by reps-allreduce; allowed: leave it out and give the tier counts to --tierList"),
    ("reps-allreduce", ["--tierList=2,2"], r"--tierList: 2 is listed twice; allowed: 2, 3 or 2,3"),
    ("reps-allreduce", ["--tierList=4"], r"--tierList: 4 is out of range; expected a whole number in \[2, 3\]"),
    ("reps-allreduce", ["--tierList="], r"--tierList: '' names no fabric; allowed: 2, 3 or 2,3"),
    ("reps-allreduce", ["--flowSize=3"], r"--flowSize: allreduce needs at least one byte per host"),
    ("reps-link-failure", ["--binWidth=0"], r"--binWidth: 0 is not allowed; allowed: a Time > 0"),
    ("reps-link-failure", ["--binWidth=1ns"], r"--binWidth: 1ns is not allowed; allowed: .*at most 100000 bins"),
    ("reps-link-failure", ["--failLeaf=0", "--failedLinks=3"], r"--failedLinks: 3 is out of range; expected .*\[0, 2\]"),
    ("reps-asymmetric", ["--degradedLinks=5"], r"--degradedLinks: 5 is out of range; expected .*\[0, 4\]"),
    ("reps-asymmetric", ["--degradedRate=0bps"], r"--degradedRate: '0bps' must be greater than zero"),
    ("reps-custom-selector", ["--lb=rrskip,nope"], r"--lb: .*nope.*allowed: .*rrskip"),
    ("reps-fabric-summary", ["--tiers=4"], r"--tiers: 4 is not allowed; allowed: 2 \(leaf-spine\) or 3"),
    ("reps-fabric-summary", ["--fatTreeK=3"], r"--fatTreeK: 3 is not allowed; allowed: 0 \(off\) or an even k from 2 to 64"),
    ("reps-fabric-summary", ["--fatTreeK=66"], r"--fatTreeK: 66 is not allowed"),
    ("reps-fabric-summary", ["--parallel=0"], r"--parallel: 0 is out of range; expected a value in \[1, 4096\]"),
    ("reps-fabric-summary", ["--leaves=4096", "--hostsPerLeaf=4096"], r"--hosts .* out of range; expected a value in \[2, 65536\]"),
    ("reps-fabric-summary", ["--tiers=3", "--spines=2", "--cores=3"], r"fabric \(--tiers.*\): Cores \(3\) must be a multiple of AggsPerPod"),
    ("reps-fabric-summary", ["--oversubscription=0.5"], r"--oversubscription: 0.5 is out of range; allowed: 0 \(off\) or 1 to 1000"),
    ("reps-fabric-summary", ["--load=0"], r"--load: 0 is out of range; expected a value in \(0, 1\]"),
    ("reps-fabric-summary", ["--packetSize=65001"], r"--packetSize: 65001 is out of range"),
    ("reps-fabric-summary", ["--duration=0"], r"--duration: must be greater than zero"),
    ("reps-fabric-summary", ["--failedLinks=5"], r"--failedLinks: 5 is out of range; expected a value in \[0, 4\]"),
    ("reps-fabric-summary", ["--degradedLinks=5"], r"--degradedLinks: 5 is out of range"),
    ("reps-fabric-summary", ["--forwarding=ecmp"], r"--forwarding: unknown port selector 'ecmp'; allowed: adaptive, dlb, glb, hash, random, or the TypeId of a PortSelector subclass"),
    ("reps-fabric-summary", ["--forwarding=ns3::EcmpPathSelector"], r"--forwarding: 'ns3::EcmpPathSelector' is not a PortSelector that can be created; allowed: adaptive, dlb"),
    ("reps-lb-comparison", ["--forwarding=spray"], r"--forwarding: unknown port selector 'spray'; allowed: adaptive, dlb, glb, hash, random, or the TypeId"),
    ("reps-custom-switch-lb", ["--forwardingList=hash,nope"], r"--forwardingList: unknown port selector 'nope'; allowed: adaptive, dlb, drill, glb, hash, random"),
    ("reps-custom-switch-lb", ["--forwarding=nope"], r"--forwarding: unknown port selector 'nope'; allowed: .*drill"),
    ("reps-fabric-summary", ["--reconverge=later"], r"--reconverge \(a Time or never\): 'later' is not a time"),
    ("reps-two-host", ["--size=0"], r"--size: 0 is out of range; expected a value in \[1, "),
    ("reps-two-host", ["--messages=0"], r"--messages: 0 is out of range"),
    ("reps-two-host", ["--messages=1000001"], r"--messages: 1e\+06 is out of range|--messages: 1000001 is out of range"),
    ("reps-two-host", ["--cc=cubic"], r"--cc: unknown congestion control 'cubic'; allowed: dcqcn, none, nscc, rccc, window"),
    ("reps-lb-comparison", ["--cc=nscc", "--ns3::NsccCongestionControl::Gamma=2"], r"--ns3::NsccCongestionControl::Gamma: '2' is not allowed; allowed: double 0:1"),
    ("reps-lb-comparison", ["--cc=nscc", "--ns3::NsccCongestionControl::QuickAdaptGate=31"], r"--ns3::NsccCongestionControl::QuickAdaptGate: '31' is not allowed; allowed: uint32_t 0:30"),
    ("reps-lb-comparison", ["--cc=nscc", "--ns3::NsccCongestionControl::InitialWindow=3"], r"--cc=nscc: NsccCongestionControl: MaxWindow \(1.5 BDP\) must be >= InitialWindow \(3 BDP\)"),
    # Receiver credits (RCCC): the checkers name the attribute, Validate() the contradiction.
    ("reps-lb-comparison", ["--cc=rccc", "--ns3::RcccPullPacer::CreditBytes=0"], r"--ns3::RcccPullPacer::CreditBytes: '0' is not allowed; allowed: uint32_t 1:16777216"),
    ("reps-lb-comparison", ["--cc=rccc", "--ns3::RcccPullPacer::PullRateFraction=3"], r"--ns3::RcccPullPacer::PullRateFraction: '3' is not allowed; allowed: double 0:2"),
    ("reps-lb-comparison", ["--cc=rccc", "--ns3::RcccPullPacer::PullRateFraction=0"], r"receiver credits \(--cc=rccc, --credits=false\): RcccPullPacer: PullRateFraction \(0\) must be in \(0, 2\]"),
    ("reps-lb-comparison", ["--cc=nscc", "--credits=true", "--ns3::RcccPullPacer::MinRate=0"], r"receiver credits \(--cc=nscc, --credits=true\): RcccPullPacer: MinRate \(0\) must be in \(0, 1\]"),
    ("reps-lb-comparison", ["--credits=true", "--ns3::RcccSender::MaxCredit=0.001"], r"receiver credits \(--cc=window, --credits=true\): RcccSender: MaxCredit \(0.001 BDP = [0-9]+ bytes\) must hold at least one packet \(4150 bytes on the wire\)"),
    ("reps-lb-comparison", ["--cc=rccc", "--ns3::RcccSender::RtsTimeout=0.5"], r"--ns3::RcccSender::RtsTimeout: '0.5' is not allowed; allowed: double 1:1e\+06"),
    ("reps-lb-comparison", ["--cc=rccc", "--ns3::RcccSender::MaxCredit=-1"], r"--ns3::RcccSender::MaxCredit: '-1' is not allowed; allowed: double 0:1000"),
    ("reps-two-host", ["--selector=ns3::Node"], r"--selector: 'ns3::Node' is not a PathSelector"),
    ("reps-two-host", ["--dropRate=1"], r"--dropRate: 1 is out of range; expected a value in \[0, 0.5\]"),
    ("reps-two-host", ["--mtu=9001"], r"--mtu: 9001 is out of range; expected a value in \[64, 9000\]"),
    ("reps-two-host", ["--rate=0bps"], r"--rate: '0bps' must be greater than zero"),
    ("reps-two-host", ["--delay=soon"], r"--delay: 'soon' is not a time"),
    ("reps-path-selector-trace", ["--selector=nope"], r"--selector: .*nope.*allowed: bitmap, ecmp"),
    ("reps-path-selector-trace", ["--selector=ns3::Node"], r"--selector: 'ns3::Node' is not a PathSelector"),
    ("reps-path-selector-trace", ["--evSpace=0"], r"--evSpace: 0 is out of range; expected a value in \[1, 65536\]"),
    ("reps-path-selector-trace", ["--evSpace=65537"], r"--evSpace: 65537 is out of range"),
    ("reps-path-selector-trace", ["--selector=bitmap", "--evSpace=8"], r"--evSpace: 8 is too small for bitmap"),
    ("reps-path-selector-trace", ["--selector=mrc", "--evSpace=100"], r"--evSpace: 100 is too small for mrc"),
    ("reps-path-selector-trace", ["--timeoutAt=5"], r"--timeoutAt: 5 is out of range; expected a value in \[0, 4\]"),
    ("reps-path-selector-trace", ["--packets=0"], r"--packets: 0 is out of range"),
    # Attribute defaults on the command line (OptionParser::Parse): the type, the attribute and
    # the value are each named, with what is allowed, instead of ns-3's --help or an abort.
    ("reps-lb-comparison", ["--ns3::MrcPathSelector::PathCount=0"], r"--ns3::MrcPathSelector::PathCount: '0' is not allowed; allowed: uint32_t 1:4096"),
    ("reps-lb-comparison", ["--ns3::MrcPathSelector::Paths=8"], r"--ns3::MrcPathSelector::Paths: ns3::MrcPathSelector has no attribute 'Paths'; allowed: PathCount, .*PlaneLossThreshold"),
    ("reps-lb-comparison", ["--ns3::MrcSelector::PathCount=8"], r"--ns3::MrcSelector::PathCount: no type 'ns3::MrcSelector'; allowed: .*--PrintTypeIds"),
    ("reps-lb-comparison", ["--ns3::MrcPathSelector::ProbeInterval=fast"], r"--ns3::MrcPathSelector::ProbeInterval: 'fast' is not allowed; allowed: Time"),
    ("reps-planes", ["--ns3::MrcPathSelector::PlaneLossThreshold=-1"], r"--ns3::MrcPathSelector::PlaneLossThreshold: '-1' is not allowed; allowed: uint32_t 0:65535"),
    ("reps-two-host", ["--ns3::RdmaQueuePair::Mtu=abc"], r"--ns3::RdmaQueuePair::Mtu: 'abc' is not allowed; allowed: uint32_t"),
    ("reps-ns3-baseline", ["--ns3::OnOffApplication::PacketSize=1.5"], r"--ns3::OnOffApplication::PacketSize: '1.5' is not allowed"),
]

# Flow-size distribution files that --cdf must reject: (name, content or None for a directory,
# regular expression after "--cdf: <path>: ").
CDF_FILES = [
    ("empty.cdf", "", r"no points; expected lines '<bytes> <cumulative percent>'"),
    ("comments-only.cdf", "# nothing\n\n", r"no points"),
    ("word.cdf", "0 0\n1000 fifty\n2000 100\n", r"line 2: expected '<bytes> <cumulative percent>', got '1000 fifty'"),
    ("one-field.cdf", "0 0\n1000\n", r"line 2: expected '<bytes> <cumulative percent>'"),
    ("three-fields.cdf", "0 0\n1000 50 7\n2000 100\n", r"line 2: expected '<bytes> <cumulative percent>'"),
    ("decreasing-size.cdf", "0 0\n2000 50\n1000 100\n", r"line 3: sizes and percents must be non-decreasing; the point before is 2000 bytes at 50%"),
    ("decreasing-percent.cdf", "0 0\n1000 60\n2000 50\n3000 100\n", r"line 3: sizes and percents must be non-decreasing"),
    ("above-100.cdf", "0 0\n1000 50\n2000 101\n", r"line 3: cumulative percent must lie in \[0, 100\], got '101'"),
    ("negative-percent.cdf", "0 -1\n1000 100\n", r"line 1: cumulative percent must lie in \[0, 100\]"),
    ("no-100.cdf", "0 0\n1000 50\n2000 99\n", r"line 3: the last point must be at 100 percent, got 99"),
    ("negative-size.cdf", "-5 0\n1000 100\n", r"line 1: flow size must lie in \[0, 1099511627776\] bytes"),
    ("huge-size.cdf", "0 0\n1e30 100\n", r"line 2: flow size must lie in \[0, 1099511627776\] bytes \(1 TiB\), got '1e30'"),
    ("nan.cdf", "0 0\nnan 100\n", r"line 2: expected '<bytes> <cumulative percent>', got 'nan 100'"),
    ("tiny-mean.cdf", "0 99.99\n1 100\n", r"line 2: the mean flow size must be at least 1 byte"),
    ("all-zero.cdf", "0 0\n0 100\n", r"line 2: the mean flow size must be at least 1 byte"),
    ("a-directory", None, r"is a directory; allowed: a built-in distribution \(websearch, hadoop\) or a file"),
]


# The example the --cdf files run on (every example checks --cdf with the same code).
CDF_EXAMPLE = "reps-lb-comparison"


def discover(program):
    """The option names of an example's --PrintHelp 'Program Options' section."""
    out = subprocess.run([program, "--PrintHelp"], capture_output=True, text=True, timeout=30)
    text = out.stdout + out.stderr
    if "Program Options:" not in text:
        raise RuntimeError(f"{program} --PrintHelp: no 'Program Options' section")
    section = text.split("Program Options:", 1)[1].split("General Arguments:", 1)[0]
    return re.findall(r"^\s+--([A-Za-z0-9]+):", section, re.MULTILINE)


def build_cases(examples_dir, tmp, only):
    """(example, args, regex, label) of every case, and errors of the discovery."""
    cases = []
    errors = []
    for example in sorted(TINY):
        if only and example != only:
            continue
        program = os.path.join(examples_dir, example)
        try:
            options = discover(program)
        except (OSError, RuntimeError, subprocess.SubprocessError) as e:
            errors.append(f"{example}: {e}")
            continue
        for option in options:
            kind = KINDS.get(example, {}).get(option) or KINDS[None].get(option)
            if kind is None:
                errors.append(f"{example}: --{option} has no kind in KINDS: add its bad values")
                continue
            for value in KIND_VALUES[kind]:
                regex = rf"--{option}\b.*{ALLOWED}|--{option}\b[^\n]*\n?[^\n]*{ALLOWED}"
                cases.append((example, [f"--{option}={value}"], regex, f"generic {kind}"))
        if "cdf" in options and example == CDF_EXAMPLE:
            for name, content, expected in CDF_FILES:
                path = os.path.join(tmp, name)
                regex = re.escape(f"--cdf: {path}: ") + expected
                if content is None:
                    regex = re.escape(f"--cdf: '{path}' ") + expected
                cases.append((example, ["--pattern=websearch", f"--cdf={path}"], regex,
                              "cdf file"))
            missing = os.path.join(tmp, "missing.cdf")
            cases.append((example, ["--pattern=websearch", f"--cdf={missing}"],
                          re.escape(f"--cdf: '{missing}' is neither a built-in distribution "
                                    "(websearch, hadoop) nor a readable file; allowed: ")
                          + "one of those names or the path of a file", "cdf file"))
    for example, args, regex in CASES:
        if not only or example == only:
            cases.append((example, [a.replace("{tmp}", tmp) for a in args], regex, "table"))
    return cases, errors


def write_cdf_files(tmp):
    for name, content, _ in CDF_FILES:
        path = os.path.join(tmp, name)
        if content is None:
            os.makedirs(path, exist_ok=True)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(content)


def run_case(examples_dir, case, timeout):
    """None when the case passes, else why it failed."""
    example, args, regex, _ = case
    command = [os.path.join(examples_dir, example)] + TINY[example] + args
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"no exit within {timeout} s (a hang)"
    text = out.stdout + out.stderr
    status = out.returncode
    if status < 0 or status >= 128:
        return f"crashed (status {status}): {text.strip()[-300:]}"
    if re.search(r"aborted\. cond=|assert failed\.|NS_FATAL|terminate called", text):
        return f"aborted (status {status}): {text.strip()[-300:]}"
    if status == 0:
        return "accepted (exit status 0); expected an error"
    if not re.search(regex, text):
        return f"status {status}, but the message does not match /{regex}/: {text.strip()[:300]}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("examples_dir")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5)
    parser.add_argument("--only")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="reps-bad-inputs-")
    try:
        write_cdf_files(tmp)
        cases, errors = build_cases(args.examples_dir, tmp, args.only)
        if args.list:
            for example, case_args, regex, label in cases:
                print(f"{example} {' '.join(case_args)}  [{label}]  /{regex}/")
        else:
            with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
                results = list(pool.map(lambda c: run_case(args.examples_dir, c, args.timeout),
                                        cases))
            for case, why in zip(cases, results):
                if why:
                    example, case_args, _, label = case
                    print(f"FAIL {example} {' '.join(case_args)} [{label}]: {why}")
            failed = sum(1 for why in results if why) + len(errors)
            for e in errors:
                print(f"FAIL {e}")
            print(f"{len(cases) + len(errors) - failed} passed, {failed} failed "
                  f"({len(cases)} cases: {sum(1 for c in cases if c[3] == 'table')} from the "
                  f"table, {sum(1 for c in cases if c[3] == 'cdf file')} cdf files, the rest "
                  f"generic)")
            return 1 if failed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
