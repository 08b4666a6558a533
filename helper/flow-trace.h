/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOW_TRACE_H
#define REPS_FLOW_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * A flow trace to replay: one flow per line, in the text format
 *
 * \code
 * # start  src  dst  bytes  [after]
 * 0us      0    5    1MiB
 * 2.5us    3    1    65536
 * 1us      5    2    4096   after=0        (1 us after flow 0 completed)
 * 0        2    4    4096   after=line:3   (when the flow on line 3 completed)
 * \endcode
 *
 * Fields are separated by blanks; '#' starts a comment; blank lines are ignored. The start is a
 * time with a unit (ns, us, ms or s; 0 may go without) in [0, 1000 s], a whole number of
 * nanoseconds. Hosts are indices in [0, hosts), source and destination different. Bytes is a
 * whole number, optionally with a unit (KiB, MiB, GiB, KB, MB, GB), in [1, MAX_BYTES]. The
 * optional dependency names an earlier flow, by flow id (flows are numbered 0, 1, ... in file
 * order) or by line number: the flow then starts its start time after that flow completed,
 * instead of at its start time. Dependencies only point backwards, so there are no cycles.
 *
 * Parse() also reads htsim's connection matrices (the REPS evaluation's and the UEC simulator's
 * `.cm` files), recognized by their first line (`Nodes N`, a header or a `src->dst` line):
 *
 * \code
 * Nodes 16
 * Connections 3
 * Triggers 1
 * 0->5 id 1 start 0 size 2000000 send_done_trigger 1
 * 0->7 id 2 trigger 1 size 2000000
 * 3->1 id 3 start 2500000 size 65536        (start in picoseconds: 2.5 us)
 * trigger id 1 oneshot
 * \endcode
 *
 * `Nodes` is the number of hosts the matrix is for (at most the fabric's); `Connections` and
 * `Triggers`, when given, must match the lines that follow. A connection line is `src->dst`
 * followed by keywords: `id I` (unique, > 0), `size B` (bytes, >= 1), and either `start T`
 * (whole picoseconds, rounded to the nearest nanosecond) or `trigger G` (the flow starts when
 * trigger G fires it); `send_done_trigger G` activates trigger G when the flow completes. A trigger
 * line is `trigger id G` with `oneshot` (its first activation starts every flow waiting for it),
 * `multishot` (each activation starts the next flow waiting for it, in file order) or
 * `barrier count C` (the C-th activation starts them all). Every flow must be reachable: a
 * matrix in which some flow would never start is refused. Keywords the replay does not model
 * (`recv_done_trigger`, `msg`, `prio`, `failure`) are refused by name.
 *
 * A plain type with no simulator: Parse() accepts a whole text or rejects it with a message
 * naming the line and the field at fault, keeping what it held before.
 */
class FlowTrace
{
  public:
    /// Largest flow (1 TiB).
    static constexpr uint64_t MAX_BYTES = 1099511627776ULL;
    /// Latest start (1000 s), in nanoseconds.
    static constexpr uint64_t MAX_START_NS = 1000000000000ULL;
    /// Most flows in one trace.
    static constexpr uint32_t MAX_FLOWS = 10000000;
    /// No dependency.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// One flow of the trace.
    struct Flow
    {
        uint64_t startNs{0};      //!< Start (after the dependency, if any), in nanoseconds.
        uint32_t src{0};          //!< Sending host.
        uint32_t dst{0};          //!< Receiving host.
        uint64_t bytes{0};        //!< Size.
        uint32_t after{NONE};     //!< Id of the flow it waits for, or NONE.
        uint32_t line{0};         //!< Its line in the text (from 1).
        uint32_t trigger{NONE};   //!< Trigger (index) that starts it, or NONE.
        uint32_t activates{NONE}; //!< Trigger (index) its completion activates, or NONE.
    };

    /// A trigger of a connection matrix.
    struct Trigger
    {
        /// What an activation does.
        enum Kind
        {
            ONE_SHOT,   //!< The first starts every target.
            MULTI_SHOT, //!< Each starts the next target.
            BARRIER,    //!< The count-th starts every target.
        };

        Kind kind{ONE_SHOT};           //!< Its kind.
        uint32_t count{1};             //!< BARRIER: activations needed.
        std::vector<uint32_t> targets; //!< Flows it starts, in file order.
        uint32_t id{0};                //!< Its id in the matrix.
    };

    /**
     * Parse a whole trace.
     * \param text the text.
     * \param hosts number of hosts (host indices in [0, hosts)); at least 2.
     * \param error set to what is wrong ("line L, field: ...") when it fails.
     * \return whether the text was accepted (if not, the trace is unchanged).
     */
    bool Parse(const std::string& text, uint32_t hosts, std::string& error);

    /**
     * Read and parse a file.
     * \param path the file.
     * \param hosts number of hosts.
     * \param error set to what is wrong, with the path, when it fails.
     * \return whether it was accepted.
     */
    bool Load(const std::string& path, uint32_t hosts, std::string& error);

    /**
     * The unit of the start times of connection-matrix lines: htsim's ConnectionMatrix reads
     * them as picoseconds (the REPS artifact's simulator), uet-htsim's main_uec as whole
     * microseconds (it passes them to timeFromUs). Applies to later Parse() calls.
     * \param picoseconds picoseconds per unit: 1 (the default) or 1000000
     */
    void SetMatrixStartUnit(uint64_t picoseconds);

    /// \return the flows, in file order (a flow's id is its index).
    const std::vector<Flow>& GetFlows() const;

    /// \return the triggers of a connection matrix (empty for the module's own format).
    const std::vector<Trigger>& GetTriggers() const;

    /**
     * \param text a whole number in decimal digits only
     * \param max the largest value allowed
     * \param [out] value the number
     * \return whether text is such a number, at most max
     */
    static bool ParseWhole(const std::string& text, uint64_t max, uint64_t& value);

  private:
    /**
     * Parse a connection matrix (the text starts with a Nodes line).
     * \param text the text.
     * \param hosts number of hosts.
     * \param error set to what is wrong when it fails.
     * \return whether it was accepted (if so, the flows and triggers are replaced).
     */
    bool ParseConnectionMatrix(const std::string& text, uint32_t hosts, std::string& error);

    std::vector<Flow> m_flows;       //!< The flows.
    uint64_t m_matrixStartPs{1};     //!< Picoseconds per unit of a matrix's start times.
    std::vector<Trigger> m_triggers; //!< The triggers (connection matrices).
};

} // namespace ns3

#endif /* REPS_FLOW_TRACE_H */
