#! /usr/bin/env python3

# A list of C++ examples to run in order to ensure that they remain buildable and runnable
# over time. Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# See test.py for more information.
cpp_examples = [
    ("reps-fabric-summary --duration=50us", "True", "True"),
    ("reps-fabric-summary --tiers=3 --leaves=2 --spines=2 --failedLinks=1 --reconverge=20us --duration=50us", "True", "True"),
    ("reps-path-selector-trace --packets=16 --ecnEvery=3", "True", "True"),
    ("reps-path-selector-trace --selector=ns3::RepsPathSelector --packets=64 --timeoutAt=40 --quiet", "True", "True"),
    ("reps-two-host --size=1000000", "True", "False"),
    ("reps-two-host --size=1000000 --dropRate=0.01 --cc=ns3::DcqcnCongestionControl", "True", "False"),
    ("reps-lb-comparison --leaves=4 --hostsPerLeaf=4 --spines=4 --flowSize=256KiB --quiet",
     "True", "False"),
    ("reps-lb-comparison --tiers=3 --pods=2 --leaves=2 --hostsPerLeaf=2 --spines=2 --cores=4 "
     "--pattern=websearch --load=0.5 --duration=100us --lb=ecmp,reps --quiet", "True", "False"),
    ("reps-lb-comparison --lb=reps --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=256KiB "
     "--tcpBackground=0.5 --tcpBackgroundSize=256KiB --quiet", "True", "False"),
    ("reps-lb-comparison --mtu=9000 --leaves=2 --hostsPerLeaf=2 --spines=2 --flowSize=256KiB "
     "--lb=ops,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=256KiB --lb=ops,reps "
     "--opsVariant=deck --markOn=enqueue --controlPriority=false --baseRtt=fabric --rto=basertt "
     "--minRto=30us --rtoBackoff=true --freezing=false --trim=true --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=3 --hostsPerLeaf=3 --spines=2 --pattern=incast "
     "--incastSenders=8 --flowSize=256KiB --linkRate=100Gbps --queuePackets=30 --ecnKmin=5 "
     "--ecnKmax=25 --pfc=true "
     "--pfcMode=static --pfcThreshold=32KiB --cc=dcqcn --lb=ops,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=8 --spines=4 --pattern=incast "
     "--incastSenders=8 --flowSize=1MiB --trim=true --cc=nscc --lb=ops,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=8 --spines=4 --pattern=incast "
     "--incastSenders=8 --flowSize=1MiB --trim=true --cc=rccc --lb=ops,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=4 --hostsPerLeaf=4 --spines=2 --flowSize=256KiB --cc=nscc "
     "--credits=true --ns3::RcccPullPacer::OversubscriptionControl=true --lb=ecmp,reps --quiet",
     "True", "False"),
    ("reps-link-failure --leaves=2 --hostsPerLeaf=4 --spines=4 --flowSize=512KiB --failAt=5us "
     "--failFor=20us --failGap=10us --binWidth=20us --quiet", "True", "False"),
    ("reps-planes --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=128KiB", "True", "False"),
    ("reps-lb-comparison --planes=2 --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=256KiB "
     "--lb=ecmp,ops,reps --failedLinks=2 --failAt=5us --quiet", "True", "False"),
    ("reps-asymmetric --leaves=4 --hostsPerLeaf=4 --spines=4 --degradedLinks=2 "
     "--flowSize=256KiB --quiet", "True", "False"),
    ("reps-allreduce --leaves=2 --hostsPerLeaf=2 --spines=2 --pods=2 --cores=4 --flowSize=64KiB "
     "--quiet", "True", "False"),
    ("reps-collective-bench --leaves=2 --hostsPerLeaf=2 --spines=2 --sizes=64KiB,256KiB "
     "--lb=ecmp,reps --ncclOperation=allgather", "True", "False"),
    ("reps-ai-training --gpusPerServer=2 --leaves=2 --hostsPerLeaf=2 --spines=2 --layers=2 "
     "--layerBytes=256KiB --arms=ecmp-qp1,ecmp-qp2,reps,dlb --ncclAlgorithm=hierarchical "
     "--quiet", "True", "False"),
    ("reps-switch-lb --leaves=2 --hostsPerLeaf=2 --spines=2 --flowSize=64KiB --degradedLinks=1 "
     "--quiet", "True", "False"),
    ("reps-custom-selector --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=128KiB --quiet",
     "True", "False"),
    ("reps-custom-switch-lb --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=128KiB --quiet",
     "True", "False"),
    ("reps-research-script --leaves=2 --hostsPerLeaf=4 --spines=2 --flowBytes=262144",
     "True", "False"),
    ("reps-research-script --selector=ns3::OpsPathSelector --leaves=2 --hostsPerLeaf=2 "
     "--spines=2 --flowBytes=65536", "True", "False"),
    ("reps-ns3-baseline --leaves=2 --hostsPerLeaf=2 --spines=2 --flowSize=64KiB", "True", "False"),
    ("reps-ns3-baseline --tiers=3 --pods=2 --leaves=2 --hostsPerLeaf=2 --spines=2 --cores=4 "
     "--flowSize=64KiB", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=64KiB "
     "--pattern=allgather --lb=ecmp,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=64KiB "
     "--pattern=reducescatter --ring=sequential --lb=ecmp,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=64KiB "
     "--pattern=butterfly --lb=ecmp,reps --quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=64KiB "
     "--pattern=training --iterations=3 --computeTime=5us --collective=butterfly --lb=ecmp,reps "
     "--quiet", "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=2 --spines=2 --flowSize=16KiB "
     "--pattern=training --iterations=2 --collective=alltoall --qpsPerPeer=2 --lb=reps --quiet",
     "True", "False"),
    ("reps-lb-comparison --leaves=2 --hostsPerLeaf=4 --spines=2 --flowSize=64KiB "
     "--pattern=training --iterations=2 --collective=butterfly --jobs=2 --jobLayout=interleaved "
     "--lb=ecmp,reps --quiet", "True", "False"),
]

# A list of Python examples to run in order to ensure that they remain runnable over time.
python_examples = []
