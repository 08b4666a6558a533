# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# waf build of the reps module for ns-3.35 and older. Lists the same files as CMakeLists.txt;
# the test "reps-build-lists" (utils/check-build-lists.py) fails when the two disagree.


def build(bld):
    module = bld.create_ns3_module(
        'reps',
        ['core', 'network', 'internet', 'point-to-point', 'traffic-control', 'applications'])
    module.source = [
        'helper/all-to-all-collective.cc',
        'helper/clos-fabric-helper.cc',
        'helper/clos-fabric.cc',
        'helper/collective.cc',
        'helper/experiment-report.cc',
        'helper/fabric-experiment.cc',
        'helper/fabric-monitor.cc',
        'helper/flow-size-cdf.cc',
        'helper/flow-stats.cc',
        'helper/option-parser.cc',
        'helper/path-selector-names.cc',
        'helper/progress-reporter.cc',
        'helper/rdma-flow-launcher.cc',
        'helper/rdma-helper.cc',
        'helper/ring-all-reduce.cc',
        'helper/sample-summary.cc',
        'helper/time-series.cc',
        'helper/workload-helper.cc',
        'helper/workload-runner.cc',
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
        'test/reps-experiment-test-suite.cc',
        'test/reps-fabric-monitor-test-suite.cc',
        'test/reps-fabric-test-suite.cc',
        'test/reps-headers-test-suite.cc',
        'test/reps-load-balancing-test-suite.cc',
        'test/reps-path-selector-test-suite.cc',
        'test/reps-selectors-test-suite.cc',
        'test/reps-transport-fabric-test-suite.cc',
        'test/reps-transport-test-suite.cc',
        'test/reps-workload-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'reps'
    headers.source = [
        'helper/all-to-all-collective.h',
        'helper/clos-fabric-helper.h',
        'helper/clos-fabric.h',
        'helper/collective.h',
        'helper/experiment-report.h',
        'helper/fabric-experiment.h',
        'helper/fabric-monitor.h',
        'helper/flow-size-cdf.h',
        'helper/flow-spec.h',
        'helper/flow-stats.h',
        'helper/option-parser.h',
        'helper/path-selector-names.h',
        'helper/progress-reporter.h',
        'helper/rdma-flow-launcher.h',
        'helper/rdma-helper.h',
        'helper/ring-all-reduce.h',
        'helper/run-result.h',
        'helper/sample-summary.h',
        'helper/time-series.h',
        'helper/workload-helper.h',
        'helper/workload-runner.h',
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
