/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PATH_SELECTOR_H
#define REPS_PATH_SELECTOR_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

/**
 * \defgroup reps REPS: load balancing in AI fabrics
 *
 * RoCEv2 queue pairs whose packets carry an entropy value (the UDP source port), ECN feedback
 * from switches, and path selection by REPS, OPS, ECMP and flowlet switching over Clos fabrics.
 */

namespace ns3
{

/**
 * \ingroup reps
 * What a path selector knows of the connection it serves; given by the queue pair when the
 * connection starts.
 */
struct PathSelectorContext
{
    Time baseRtt{MicroSeconds(8)}; //!< Unloaded round-trip time of the connection.
    Time rto{MicroSeconds(40)};    //!< Retransmission timeout of the queue pair.
    uint32_t bdpPackets{1};        //!< One bandwidth-delay product in packets (at least 1).
    bool trimming{false};          //!< Whether switches trim packets instead of dropping them.
    /**
     * Number of parallel network planes the queue pair's NIC reaches (1 on a single-plane
     * fabric). A packet leaves on plane PathSelector::PlaneOfEntropy(ev, planes), so a selector
     * chooses the plane together with the EV.
     */
    uint32_t planes{1};
};

/**
 * \ingroup reps
 * Base class of the path selectors: gives the entropy value (EV, the UDP source port) of every
 * packet a queue pair sends, and learns from the feedback that comes back.
 *
 * A queue pair calls Start() once, NextEntropy() for every data packet (new data and
 * retransmissions alike), OnAck() for every ACK (the EV and the CE bit it echoes), OnNack()
 * for every NACK of a trimmed packet, OnLoss() for every packet it declares lost, and
 * OnTimeout() whenever its retransmission timer fires. Subclasses are chosen by TypeId, as
 * TCP congestion control is in ns-3 (see RdmaHelper).
 *
 * A subclass implements two hooks: DoNextEntropy() (the EV of the next packet) and
 * DoFeedback() (what came back for one EV, as a Feedback: the EV, its Kind GOOD, ECN, NACK or
 * LOST, and the RTT of an ACKed packet). OnAck(), OnNack() and OnLoss() turn the queue pair's
 * events into DoFeedback() calls, count them and fire the Feedback trace; DoTimeout() (the
 * connection's timer fired, no EV attached), DoStart(), DoValidate() (attributes that must
 * agree with the entropy space or the connection) and GetName() are optional.
 *
 * Every selector counts the EVs it chose (per Choice), the feedback it received (per
 * Feedback::Kind) and the timeouts; GetCounters() returns these and the selector's own counters by
 * name, so that a script can read any selector's statistics without knowing its class.
 *
 * EVs are drawn from the entropy space [EntropyBase, EntropyBase + EntropySpace).
 */
class PathSelector : public Object
{
  public:
    /// Why an EV was chosen (reported by the EntropyChosen trace).
    enum Choice : uint8_t
    {
        FIXED = 0,       //!< The connection's one EV (ECMP; flowlet and PLB between re-paths).
        RANDOM = 1,      //!< A uniformly random EV (OPS; REPS when nothing is cached; new flowlet).
        EXPLORE = 2,     //!< A random EV drawn while REPS explores.
        RECYCLED = 3,    //!< An EV whose ACK came back unmarked (REPS).
        FROZEN = 4,      //!< A cached EV reused while REPS is frozen.
        ROUND_ROBIN = 5, //!< One of a fixed set of EVs, in turn (MP).
    };

    /// Number of Choice values.
    static constexpr uint32_t N_CHOICES = 6;

    /**
     * What came back for the packet sent with one EV: the data DoFeedback() learns from, as
     * TcpCongestionOps::PktsAcked() is given the ACKed segments and their RTT. The kinds are
     * spelled Feedback::GOOD, Feedback::ECN, Feedback::NACK and Feedback::LOST.
     */
    struct Feedback
    {
        /// What came back.
        enum Kind : uint8_t
        {
            GOOD = 0, //!< ACKed without an ECN mark.
            ECN = 1,  //!< ACKed with an ECN mark (CE).
            NACK = 2, //!< Trimmed by a full queue; the receiver sent a NACK.
            LOST = 3, //!< Declared lost (retransmission timeout or a go-back-N NACK).
        };

        /// Number of Kind values.
        static constexpr uint32_t N_KINDS = 4;

        uint16_t ev{0};      //!< The EV the packet carried (echoed by the ACK or NACK).
        Kind kind{GOOD};     //!< What came back.
        Time rtt{Time(0)};   //!< RTT measured for the packet: GOOD and ECN only (else zero;
                             //!< zero also when the queue pair could not measure it).
        bool lastHop{false}; //!< A NACK of a packet trimmed at the last hop: kind is NACK
                             //!< (LastHopNacks Path) or GOOD/ECN (Receiver).
    };

    /// What a NACK of a packet trimmed at the last hop tells the selector (LastHopNacks).
    enum LastHopNacks : uint8_t
    {
        LAST_HOP_RECEIVER = 0, //!< Congestion at the receiver: GOOD, or ECN when CE is echoed.
        LAST_HOP_PATH = 1,     //!< A NACK like any other: the path is blamed.
    };

    /**
     * Asks the transport to send a path probe carrying an EV (see SetProbeCallback()); the
     * argument is the EV.
     */
    typedef Callback<void, uint16_t> ProbeCallback;

    /// Named counters of a selector (see GetCounters()).
    typedef std::map<std::string, uint64_t> Counters;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PathSelector();
    ~PathSelector() override;

    /**
     * TracedCallback signature for the EV chosen for a packet.
     * \param [in] ev the entropy value (UDP source port).
     * \param [in] why the reason it was chosen.
     * \param [in] retransmission whether the packet is a retransmission.
     */
    typedef void (*EntropyChosenTracedCallback)(uint16_t ev, Choice why, bool retransmission);

    /**
     * TracedCallback signature for the feedback of one EV.
     * \param [in] ev the entropy value the packet carried.
     * \param [in] kind what came back.
     */
    typedef void (*FeedbackTracedCallback)(uint16_t ev, Feedback::Kind kind);

    /**
     * \return the short name of this selector on command lines and in results ("ecmp",
     *         "reps", ...); by default its TypeId name.
     */
    virtual std::string GetName() const;

    /**
     * Check the selector's attributes against each other and against a connection: first the
     * base class's (EntropyBase + EntropySpace, the context), then the subclass's own
     * (DoValidate()). Start() aborts with the sentence; the queue pair calls it when it is
     * connected, and an experiment calls it on a selector of its own to reject an option with
     * a message that names the option.
     * \param context the connection (a default PathSelectorContext is one plane).
     * \return an empty string when valid, else what is wrong and what is allowed.
     */
    std::string Validate(const PathSelectorContext& context) const;

    /**
     * Start serving a connection; aborts with the message of Validate() when it fails.
     * \param context what the queue pair knows of the connection.
     */
    void Start(const PathSelectorContext& context);

    /**
     * \param retransmission whether the packet retransmits data sent before.
     * \return the EV of the next packet.
     */
    uint16_t NextEntropy(bool retransmission);

    /**
     * An ACK came back: DoFeedback() with GOOD, or ECN when \p ecn is set.
     * \param ev the EV echoed by the ACK (the one the acknowledged packet carried).
     * \param ecn the CE bit of the acknowledged packet, echoed by the ACK.
     * \param rtt the round-trip time measured for that packet (zero when unknown), handed to
     *            the hook as Feedback::rtt.
     */
    void OnAck(uint16_t ev, bool ecn, Time rtt);

    /**
     * A NACK came back: the packet sent with \p ev was trimmed by a full queue. DoFeedback()
     * with NACK, unless the packet was trimmed at the last hop (the port toward the receiver)
     * and LastHopNacks is Receiver (the default, as UET's load balancers do): then the path
     * delivered it and the congestion is the receiver's, so DoFeedback() gets GOOD, or ECN when
     * the NACK echoes a CE mark from the fabric, with Feedback::lastHop set. The counters and
     * the Feedback trace report a NACK either way; "nacks.last-hop" counts the last-hop ones.
     * \param ev the EV of the trimmed packet.
     * \param lastHop whether the NACK says the packet was trimmed at the last hop.
     * \param ecn the CE bit the NACK echoes (that of the trimmed packet).
     */
    void OnNack(uint16_t ev, bool lastHop = false, bool ecn = false);

    /**
     * The packet sent with \p ev was declared lost: DoFeedback() with LOST.
     * \param ev the EV it carried.
     */
    void OnLoss(uint16_t ev);

    /// The retransmission timer of the queue pair fired (after the OnLoss() calls of the
    /// packets it declared lost): DoTimeout().
    void OnTimeout();

    /**
     * Optional probe hook: the transport (RdmaQueuePair) gives the function that sends a probe
     * on an EV; a selector that probes its paths (MRC) calls it through SendProbe(). The other
     * selectors never probe, and a selector without a hook simply sends no probes.
     * \param cb sends a probe with the given EV (a null callback removes the hook).
     */
    void SetProbeCallback(ProbeCallback cb);

    /**
     * A probe reply came back: the probe sent with \p ev crossed the fabric both ways.
     * DoProbeReply().
     * \param ev the EV the probe carried, echoed by the reply.
     * \param rtt the probe's round-trip time.
     */
    void OnProbeReply(uint16_t ev, Time rtt);

    /**
     * Assign fixed random variable stream numbers to the random variables used by this model.
     * A selector that was already started (its queue pair connected) starts again, so that the
     * draws made when it started (the EV of ECMP and PLB, the EV set of MP) come from the new
     * stream too and do not depend on how many automatic streams were handed out before. Call
     * it before the queue pair sends.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    virtual int64_t AssignStreams(int64_t stream);

    /// \return the number of distinct EVs this selector may use.
    uint32_t GetEntropySpace() const;
    /// \return the smallest EV this selector may use.
    uint16_t GetEntropyBase() const;
    /// \return the context given to Start().
    const PathSelectorContext& GetContext() const;
    /// \return whether Start() was called.
    bool IsStarted() const;

    /// \return how many EVs were chosen since Start().
    uint64_t GetPacketCount() const;
    /**
     * \param why a reason.
     * \return how many EVs were chosen for that reason since Start().
     */
    uint64_t GetChoiceCount(Choice why) const;
    /**
     * \param kind a kind of feedback.
     * \return how many times it was received since Start().
     */
    uint64_t GetFeedbackCount(Feedback::Kind kind) const;
    /// \return how many retransmission timeouts were reported since Start().
    uint64_t GetTimeoutCount() const;

    /**
     * Every counter of this selector, by name: "packets", "choice.<reason>" per Choice,
     * "feedback.<kind>" per Feedback::Kind (a last-hop NACK counts as "nack"), "nacks.last-hop"
     * (NACKs of packets trimmed at the last hop), "timeouts", and the counters the subclass adds
     * (e.g. "freezes" of REPS, "repaths" of PLB).
     *
     * \return the counters since Start().
     */
    Counters GetCounters() const;

    /**
     * \param name a counter's name (see GetCounters()).
     * \return its value, or 0 when this selector does not count it.
     */
    uint64_t GetCounter(const std::string& name) const;

    /**
     * The plane a packet with a given EV leaves on: the EV modulo the number of planes, so
     * every plane has its share of any contiguous EV range and, inside a plane, the switches
     * hash the whole EV as on a single-plane fabric.
     * \param ev the entropy value.
     * \param planes the number of planes (at least 1).
     * \return the plane, in [0, planes).
     */
    static uint32_t PlaneOfEntropy(uint16_t ev, uint32_t planes)
    {
        return planes <= 1 ? 0 : ev % planes;
    }

    /// \return the number of planes of the connection (PathSelectorContext::planes).
    uint32_t GetPlanes() const;

    /**
     * \param why a reason.
     * \return its name ("fixed", "random", "explore", "recycled", "frozen", "round-robin").
     */
    static std::string ChoiceName(Choice why);

    /**
     * \param kind a kind of feedback.
     * \return its name ("good", "ecn", "nack", "lost").
     */
    static std::string FeedbackName(Feedback::Kind kind);

  protected:
    void DoDispose() override;

    /**
     * Choose the EV of the next packet.
     * \param retransmission whether the packet is a retransmission.
     * \param [out] why set to the reason for the choice.
     * \return the EV.
     */
    virtual uint16_t DoNextEntropy(bool retransmission, Choice& why) = 0;

    /**
     * Learn what came back for the packet sent with one EV. The default does nothing (a
     * selector that ignores feedback, as ECMP and OPS).
     * \param feedback the EV, what came back for it and, for an ACK, the packet's RTT.
     */
    virtual void DoFeedback(const Feedback& feedback);

    /// The retransmission timer fired (no EV attached; the lost packets were reported as LOST
    /// just before). The default does nothing.
    virtual void DoTimeout();

    /// Called by Start() once the context is set; subclasses reset their state here.
    virtual void DoStart();

    /**
     * Check the subclass's attributes (called by Validate() once the base class's are valid):
     * e.g. a selector that sprays over a set of distinct EVs needs an entropy space that holds
     * them. A selector that accepts an entropy space must accept every larger one (up to
     * 65536 - EntropyBase), so that a caller can tell the smallest one allowed. The default
     * accepts everything.
     * \param context the connection.
     * \return an empty string when valid, else what is wrong and what is allowed.
     */
    virtual std::string DoValidate(const PathSelectorContext& context) const;

    /**
     * A reply to a probe came back (see OnProbeReply()). The default does nothing.
     * \param ev the probed EV.
     * \param rtt the probe's round-trip time.
     */
    virtual void DoProbeReply(uint16_t ev, Time rtt);

    /**
     * Ask the transport to send a probe with \p ev (see SetProbeCallback()).
     * \param ev the EV to probe.
     * \return whether a probe hook is set (and so a probe was handed to the transport).
     */
    bool SendProbe(uint16_t ev);

    /**
     * Add the subclass's own counters to GetCounters().
     * \param [in,out] counters the counters so far.
     */
    virtual void DoGetCounters(Counters& counters) const;

    /// \return an EV drawn uniformly from the entropy space.
    uint16_t RandomEntropy();

    /**
     * \param max the largest value
     * \return an integer drawn uniformly from [0, max], from the selector's random stream
     */
    uint32_t RandomInteger(uint32_t max);

  private:
    /**
     * Count and trace one feedback, and hand it to DoFeedback().
     * \param feedback what came back.
     */
    void Feed(const Feedback& feedback);

    /// Zero every counter.
    void ResetCounters();

    uint32_t m_entropySpace;                                //!< Number of distinct EVs.
    uint16_t m_entropyBase;                                 //!< Smallest EV.
    PathSelectorContext m_context;                          //!< The connection served.
    bool m_started;                                         //!< Start() was called.
    Ptr<UniformRandomVariable> m_rng;                       //!< Source of random EVs.
    std::array<uint64_t, N_CHOICES> m_choices{};            //!< EVs chosen, per Choice.
    std::array<uint64_t, Feedback::N_KINDS> m_feedbacks{};  //!< Feedback, per kind.
    uint64_t m_timeouts{0};                                 //!< Timeouts reported.
    uint64_t m_lastHopNacks{0};                             //!< Last-hop NACKs received.
    LastHopNacks m_lastHopPolicy;                           //!< LastHopNacks attribute.
    ProbeCallback m_probe;                                  //!< Probe hook of the transport.
    TracedCallback<uint16_t, Choice, bool> m_entropyChosen; //!< EntropyChosen trace.
    TracedCallback<uint16_t, Feedback::Kind> m_feedback;    //!< Feedback trace.
};

} // namespace ns3

#endif /* REPS_PATH_SELECTOR_H */
