# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# waf build of the reps module for ns-3.35 and older. Lists the same files as CMakeLists.txt;
# the test "reps-build-lists" (utils/check-build-lists.py) fails when the two disagree.


def build(bld):
    module = bld.create_ns3_module(
        'reps',
        ['core', 'network', 'internet', 'point-to-point', 'traffic-control', 'applications'])
    module.source = [
        'helper/clos-fabric-helper.cc',
        'helper/clos-fabric.cc',
        'helper/rdma-helper.cc',
        'model/dcqcn-congestion-control.cc',
        'model/ecmp-path-selector.cc',
        'model/ecn-queue-disc.cc',
        'model/fabric-link-error-model.cc',
        'model/fabric-switch.cc',
        'model/flowlet-path-selector.cc',
        'model/mp-path-selector.cc',
        'model/no-congestion-control.cc',
        'model/ops-path-selector.cc',
        'model/path-selector.cc',
        'model/plb-path-selector.cc',
        'model/rdma-congestion-control.cc',
        'model/rdma-queue-pair.cc',
        'model/rdma-stack.cc',
        'model/rdma-window-congestion-control.cc',
        'model/reps-path-selector.cc',
        'model/roce-ack-header.cc',
        'model/roce-bth-header.cc',
    ]

    module_test = bld.create_ns3_module_test_library('reps')
    module_test.source = [
        'test/reps-congestion-control-test-suite.cc',
        'test/reps-ecn-queue-test-suite.cc',
        'test/reps-fabric-test-suite.cc',
        'test/reps-headers-test-suite.cc',
        'test/reps-load-balancing-test-suite.cc',
        'test/reps-path-selector-test-suite.cc',
        'test/reps-selectors-test-suite.cc',
        'test/reps-transport-fabric-test-suite.cc',
        'test/reps-transport-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'reps'
    headers.source = [
        'helper/clos-fabric-helper.h',
        'helper/clos-fabric.h',
        'helper/rdma-helper.h',
        'model/dcqcn-congestion-control.h',
        'model/ecmp-path-selector.h',
        'model/ecn-queue-disc.h',
        'model/fabric-link-error-model.h',
        'model/fabric-switch.h',
        'model/flowlet-path-selector.h',
        'model/mp-path-selector.h',
        'model/no-congestion-control.h',
        'model/ops-path-selector.h',
        'model/path-selector.h',
        'model/plb-path-selector.h',
        'model/rdma-congestion-control.h',
        'model/rdma-queue-pair.h',
        'model/rdma-stack.h',
        'model/rdma-window-congestion-control.h',
        'model/reps-core.h',
        'model/reps-ns3-compat.h',
        'model/reps-path-selector.h',
        'model/roce-ack-header.h',
        'model/roce-bth-header.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
