/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_EXPERIMENT_REPORT_H
#define REPS_EXPERIMENT_REPORT_H

#include "run-result.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The result of an experiment: its configuration (every option) and one RunResult per path
 * selector, printed as a side-by-side table, written as a JSON summary and as CSV (one row
 * per flow). JSON is produced with nlohmann::json (Debian's nlohmann-json3-dev).
 *
 * JSON shape (doc/reps-workloads.rst has every field):
 * \code
 * {"config": {"lb": "ecmp,reps", "flowSize": 8388608, ...},
 *  "results": [{"lb": "reps", "flows": 128, "completed": 128,
 *               "fct_us": {"mean": x, "min": x, "p50": x, "p99": x, "max": x},
 *               "slowdown": {"mean": x, "p50": x, "p99": x, "max": x},
 *               "collective_us": x or null, "collectives": [...],
 *               "drops": n, "trims": n, "retransmissions": n, "ecn_marks": n, "freezes": n,
 *               "max_queue_bytes": n, "max_queue_bytes_per_tier": {"leaf": n, ...},
 *               "link_bytes": [{"link": s, "tier": s, "bytes": n, "rate_bps": n}, ...],
 *               "timeseries": {...}, "events": [{"t_us": x, "label": s}, ...],
 *               "sim_time_us": x, "wall_s": x, "packets": n,
 *               "tcp_background": {"flows": n, "completed": n, "size_bytes": n, "bytes": n,
 *                                  "goodput_gbps": x, "fct_us": {...}},
 *               "pfc": {"pauses_sent": n, "resumes_sent": n, "pauses_received": n,
 *                       "paused_us": x, "pauses_sent_per_tier": {"leaf": n, ...},
 *                       "ports": [{"port": s, "tier": s, "pauses_sent": n,
 *                                  "resumes_sent": n, "pauses_received": n,
 *                                  "paused_us": x}, ...]}}]}
 * \endcode
 * ("tcp_background" only when the run had ns-3 TCP background flows; size_bytes 0: unlimited.
 * "pfc" only when the fabric is lossless; its ports are those that sent or received a PFC
 * frame.)
 * \code
 * \endcode
 *
 * CSV columns (GetCsvColumns): lb, id, src, dst, bytes, tag, group, step, subflow,
 * background, start_us, end_us, fct_us, ideal_us, slowdown, completed; end_us, fct_us and
 * slowdown are empty for a flow that did not complete. Scheme names and tags are restricted
 * to letters, digits and `_-.:+`, so that no CSV field ever needs quoting.
 */
class ExperimentReport
{
  public:
    ExperimentReport();

    /**
     * Record one configuration option (setting a key again replaces its value).
     * \tparam T bool, an integer type, a floating-point type or something convertible to
     * std::string.
     * \param key the option's name.
     * \param value its value.
     */
    template <typename T>
    void SetConfig(const std::string& key, const T& value)
    {
        if constexpr (std::is_same_v<T, bool>)
        {
            SetConfigValue(key, Value{Value::BOOL, value, 0, 0, 0, ""});
        }
        else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        {
            SetConfigValue(key, Value{Value::INT, false, static_cast<int64_t>(value), 0, 0, ""});
        }
        else if constexpr (std::is_integral_v<T>)
        {
            SetConfigValue(key, Value{Value::UINT, false, 0, static_cast<uint64_t>(value), 0, ""});
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            SetConfigValue(key, Value{Value::DOUBLE, false, 0, 0, static_cast<double>(value), ""});
        }
        else
        {
            SetConfigValue(key, Value{Value::STRING, false, 0, 0, 0, std::string(value)});
        }
    }

    /**
     * \param result the outcome of one run (copied).
     */
    void AddResult(const RunResult& result);

    /// \return the results, in the order they were added.
    const std::vector<RunResult>& GetResults() const;

    /**
     * \param indent spaces per level (negative: one line).
     * \return the JSON summary.
     */
    std::string ToJson(int indent = 2) const;

    /**
     * \param path file to write ("-": standard output).
     * \param [out] error why it could not be written.
     * \return whether the file was written.
     */
    bool WriteJson(const std::string& path, std::string& error) const;

    /**
     * Write one CSV row per flow of every result, after a header row.
     * \param os the stream.
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \param path file to write ("-": standard output).
     * \param [out] error why it could not be written.
     * \return whether the file was written.
     */
    bool WriteCsv(const std::string& path, std::string& error) const;

    /**
     * Print the results side by side, one row per path selector.
     * \param os the stream.
     */
    void PrintTable(std::ostream& os) const;

    /// \return the CSV column names, in order.
    static std::vector<std::string> GetCsvColumns();

    /**
     * \param s a scheme name or tag.
     * \return whether it is made of letters, digits and `_-.:+` only (and not empty).
     */
    static bool IsPlainName(const std::string& s);

    /**
     * The fields a trace replay adds to its entry of a result's "collectives" array:
     * "trace_collectives" (each collective call: name, collective, group, ranks, bytes,
     * start_us, duration_us, completed) and "exposed_comm_us" (each rank's exposed
     * communication time).
     * \param c a collective's record (with calls).
     * \return them, as the text of a JSON object.
     */
    static std::string TraceReplayJson(const FlowStats::Collective& c);

  private:
    /// A configuration value of one of the JSON scalar types.
    struct Value
    {
        /// Which member holds the value.
        enum Kind
        {
            BOOL,
            INT,
            UINT,
            DOUBLE,
            STRING
        };

        Kind kind;     //!< Type of the value.
        bool b;        //!< BOOL value.
        int64_t i;     //!< INT value.
        uint64_t u;    //!< UINT value.
        double d;      //!< DOUBLE value.
        std::string s; //!< STRING value.
    };

    /**
     * \param key the option.
     * \param value its value.
     */
    void SetConfigValue(const std::string& key, const Value& value);

    std::vector<std::pair<std::string, Value>> m_config; //!< Options, in the order set.
    std::vector<RunResult> m_results;                    //!< One per path selector.
};

} // namespace ns3

#endif /* REPS_EXPERIMENT_REPORT_H */
