/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FAILURE_SCHEDULE_H
#define REPS_FAILURE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * A failure schedule: what fails, degrades or loses packets in a fabric, and when, read from a
 * text file so that a scenario is written once and replayed exactly.
 *
 * One event per line, `<time> <element> <action> [<value>...]`; blank lines and text after
 * `#` are ignored; fields are separated by spaces or tabs.
 *
 * - time: when, from the start of the simulation: a number and a unit (ps, ns, us, ms, s), or
 *   0; a whole number of nanoseconds, at most 1000 s.
 * - element: `link:<node>-<node>` (e.g. `link:leaf0-spine1`, `link:host3-leaf0`,
 *   `link:agg0.1-core2`; either order; `#k` after it for the k-th parallel link),
 *   `switch:<node>` (e.g. `switch:spine2`: every link of the switch), `plane:<p>` (p from 0
 *   to 7: every link of plane p of a multi-plane fabric, host links included) or
 *   `uplinks:<n>[@leaf<l>][#<s>][+<gap>]`: n leaf uplinks (leaf-spine links with 2 tiers,
 *   leaf-aggregation links with 3; the first parallel link of each pair; every plane's, plane
 *   after plane), either the first n of leaf l in order (`uplinks:2@leaf0`) or n drawn at
 *   random from the uplinks of every leaf with the ns-3 stream s (`uplinks:3#7`: the same s
 *   and run number draw the same links, in the same order), 1 <= n <= 100000; with `+<gap>`
 *   (a time above 0), the k-th of them (from 0) acts k x gap after the line's time
 *   (`uplinks:2@leaf0+100us`). In a multi-plane fabric, the switches of plane p > 0 are named
 *   `p<p>.<name>` (`p1.spine2`, `link:host3-p1.leaf0`); plane 0's keep their plain names. With
 *   servers of several GPUs, the scale-up switch of server s is `scaleup<s>`: GPU h's link is
 *   `link:host<h>-scaleup<s>`, and `switch:scaleup<s>` is every link of the server's domain.
 * - action:
 *   - `down`: the element goes down (both directions), until an `up` of the same element;
 *   - `up`: it comes back (it must be down);
 *   - `flap <down> <period> <count>`: down for `<down>`, then up, every `<period>`, `<count>`
 *     times (0 < down < period, 1 <= count <= 100000), starting at `<time>`;
 *   - `rate <rate>` (links and uplinks): the link's rate from then on, e.g. `100Gbps` (bps,
 *     kbps, Mbps, Gbps, Tbps; above 0, at most 100 Tbps);
 *   - `loss <p>` (links and uplinks): each packet arriving over the link, in either
 *     direction, is lost with probability p from then on (0 <= p <= 1; 0 ends it);
 *   - `ber <rate>` (links and uplinks): bit errors at that rate per bit; a packet with an
 *     error is lost (0 <= rate <= 1e-3; 0 ends it).
 *
 * Parsing is plain C++ (no simulator); names are resolved against a fabric by
 * FailureInjector. Every error names the line and the field at fault.
 */
class FailureSchedule
{
  public:
    /// What happens.
    enum Action : uint8_t
    {
        DOWN, //!< Goes down.
        UP,   //!< Comes back.
        FLAP, //!< Down and up repeatedly.
        RATE, //!< Link rate changes.
        LOSS, //!< Random packet loss.
        BER,  //!< Random bit errors.
    };

    /// One line of the schedule.
    struct Event
    {
        uint32_t line{0};     //!< Line number in the text (from 1).
        int64_t timeNs{0};    //!< When, in nanoseconds.
        bool isSwitch{false}; //!< A switch (true) or a link (false).
        bool isPlane{false};  //!< A whole plane (then isSwitch is false).
        uint32_t plane{0};    //!< The plane of a plane element.
        std::string nodeA;    //!< The switch, or one end of the link.
        std::string nodeB;    //!< The other end of the link (empty for a switch).
        uint32_t parallel{0}; //!< Which parallel link (#k; 0 when not given).
        Action action{DOWN};  //!< What happens.
        int64_t downNs{0};    //!< FLAP: how long each time.
        int64_t periodNs{0};  //!< FLAP: period.
        uint32_t count{0};    //!< FLAP: how many times.
        uint64_t rateBps{0};  //!< RATE: the new rate.
        double value{0};      //!< LOSS: probability; BER: bit error rate.

        bool isUplinks{false}; //!< Leaf uplinks (then isSwitch and isPlane are false).
        uint32_t uplinks{0};   //!< Uplinks: how many.
        int32_t leaf{-1};      //!< Uplinks: the leaf whose first ones they are (-1: drawn).
        int64_t stream{-1};    //!< Uplinks drawn: the ns-3 stream of the draw.
        int64_t gapNs{0};      //!< Uplinks: the k-th (from 0) acts k x gapNs after timeNs.
        /// Whether FailureInjector::GetOutcomes() reports it (the experiments' fault options,
        /// reported link by link among the events of the run, are not; always from a text).
        bool reported{true};

        /// \return the element: link:a-b[#k], switch:a, plane:p or uplinks:n[@leafl][#s][+gap]
        std::string GetElement() const;
    };

    /// Latest time of an event, in nanoseconds (1000 s).
    static constexpr int64_t MAX_TIME_NS = 1000LL * 1000 * 1000 * 1000;

    /**
     * Parse a schedule.
     * \param text the text
     * \param[out] events the events, in the order of the lines (left empty on error)
     * \return an empty string, or "line N: ..." naming the field at fault and what is allowed
     */
    static std::string Parse(const std::string& text, std::vector<Event>& events);

    /**
     * Read and parse a file.
     * \param path the file
     * \param[out] events the events (left empty on error)
     * \return an empty string, or the error, prefixed with the path
     */
    static std::string Load(const std::string& path, std::vector<Event>& events);

    /// The cable failures of one of htsim's failures_input files (the REPS evaluation's).
    struct HtsimCableFailures
    {
        bool on{false};      //!< Cable-Fail: ON.
        double share{0};     //!< Cable-Fail-Max-Percent (a share, 0 to 1).
        int64_t startNs{0};  //!< Cable-Fail-Start-After, in nanoseconds.
        int64_t periodNs{0}; //!< Cable-Fail-Period, in nanoseconds.
    };

    /**
     * \param text a failure file
     * \return whether it is in htsim's failures_input format ("Key: value" lines)
     */
    static bool IsHtsimFailures(const std::string& text);

    /**
     * Parse one of htsim's failures_input files. Only its failed cables are modelled
     * (CableFailureController): Cable-Fail, Cable-Fail-Start-After and Cable-Fail-Period (in
     * picoseconds) and Cable-Fail-Max-Percent; every other failure it can describe must be OFF
     * (its parameters are then accepted), or the file is refused naming the line and the key.
     * \param text the text
     * \param[out] out what it sets
     * \return an empty string, or "line N, key: ..."
     */
    static std::string ParseHtsimFailures(const std::string& text, HtsimCableFailures& out);

    /**
     * Parse a time: a number and a unit (ps, ns, us, ms, s), or 0.
     * \param text the text
     * \param[out] ns the time in nanoseconds
     * \return an empty string, or what is wrong
     */
    static std::string ParseTimeNs(const std::string& text, int64_t& ns);
};

} // namespace ns3

#endif /* REPS_FAILURE_SCHEDULE_H */
