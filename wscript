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
        'helper/collective.cc',
        'helper/flow-size-cdf.cc',
        'helper/fabric-trace-helper.cc',
        'helper/flow-stats.cc',
        'helper/halving-doubling-all-reduce.cc',
        'helper/rdma-flow-launcher.cc',
        'helper/rdma-helper.cc',
        'helper/ring-all-gather.cc',
        'helper/ring-all-reduce.cc',
        'helper/ring-reduce-scatter.cc',
        'helper/sample-summary.cc',
        'helper/stepped-collective.cc',
        'helper/tcp-background.cc',
        'helper/training-loop.cc',
        'helper/workload-helper.cc',
        'helper/workload-runner.cc',
        'model/bitmap-path-selector.cc',
        'model/clos-fabric.cc',
        'model/clos-routes.cc',
        'model/dcqcn-congestion-control.cc',
        'model/ecmp-path-selector.cc',
        'model/ecn-queue-disc.cc',
        'model/fabric-link-error-model.cc',
        'model/fabric-switch.cc',
        'model/flowlet-path-selector.cc',
        'model/mp-path-selector.cc',
        'model/mprdma-path-selector.cc',
        'model/no-congestion-control.cc',
        'model/ops-path-selector.cc',
        'model/path-selector.cc',
        'model/plb-path-selector.cc',
        'model/rdma-congestion-control.cc',
        'model/rdma-queue-pair.cc',
        'model/rdma-receive-window.cc',
        'model/rdma-send-window.cc',
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
        'test/reps-trace-helper-test-suite.cc',
        'test/reps-transport-test-suite.cc',
        'test/reps-workload-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'reps'
    headers.source = [
        'helper/all-to-all-collective.h',
        'helper/clos-fabric-helper.h',
        'helper/collective.h',
        'helper/flow-size-cdf.h',
        'helper/flow-spec.h',
        'helper/fabric-trace-helper.h',
        'helper/flow-stats.h',
        'helper/halving-doubling-all-reduce.h',
        'helper/rdma-flow-launcher.h',
        'helper/rdma-helper.h',
        'helper/ring-all-gather.h',
        'helper/ring-all-reduce.h',
        'helper/ring-reduce-scatter.h',
        'helper/sample-summary.h',
        'helper/stepped-collective.h',
        'helper/tcp-background.h',
        'helper/training-loop.h',
        'helper/workload-helper.h',
        'helper/workload-runner.h',
        'model/bitmap-path-selector.h',
        'model/clos-fabric.h',
        'model/clos-routes.h',
        'model/dcqcn-congestion-control.h',
        'model/ecmp-path-selector.h',
        'model/ecn-queue-disc.h',
        'model/fabric-link-error-model.h',
        'model/fabric-switch.h',
        'model/flowlet-path-selector.h',
        'model/mp-path-selector.h',
        'model/mprdma-path-selector.h',
        'model/no-congestion-control.h',
        'model/ops-path-selector.h',
        'model/path-selector.h',
        'model/plb-path-selector.h',
        'model/rdma-congestion-control.h',
        'model/rdma-psn.h',
        'model/rdma-queue-pair.h',
        'model/rdma-receive-window.h',
        'model/rdma-send-window.h',
        'model/rdma-stack.h',
        'model/rdma-window-congestion-control.h',
        'model/reps-core.h',
        'model/reps-ns3-compat.h',
        'model/reps-path-selector.h',
        'model/roce-ack-header.h',
        'model/roce-bth-header.h',
        'model/shuffle.h',
    ]

    # The experiment layer, a module of its own above reps.
    experiment = bld.create_ns3_module('reps-experiment', ['reps'])
    experiment.source = [
        'experiment/experiment-options.cc',
        'experiment/experiment-report.cc',
        'experiment/experiment-run.cc',
        'experiment/fabric-experiment.cc',
        'experiment/fabric-monitor.cc',
        'experiment/fabric-options.cc',
        'experiment/option-parser.cc',
        'experiment/option-values.cc',
        'experiment/option-registry.cc',
        'experiment/path-selector-names.cc',
        'experiment/progress-reporter.cc',
        'experiment/time-series.cc',
    ]
    experiment_headers = bld(features='ns3header')
    experiment_headers.module = 'reps-experiment'
    experiment_headers.source = [
        'experiment/experiment-options.h',
        'experiment/experiment-report.h',
        'experiment/experiment-run.h',
        'experiment/experiment-streams.h',
        'experiment/fabric-experiment.h',
        'experiment/fabric-monitor.h',
        'experiment/fabric-options.h',
        'experiment/option-parser.h',
        'experiment/option-registry.h',
        'experiment/path-selector-names.h',
        'experiment/progress-reporter.h',
        'experiment/run-result.h',
        'experiment/time-series.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
