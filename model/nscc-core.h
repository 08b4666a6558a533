/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NSCC_CORE_H
#define REPS_NSCC_CORE_H

#include <cstdint>

/**
 * \file
 * \ingroup reps
 * The rules of NSCC, the Ultra Ethernet sender congestion control, for one connection as a
 * plain C++ type: no simulator, no allocation, no randomness. Times are plain integers
 * (nanoseconds), byte counts doubles (payload bytes), so that a scripted sequence of ACKs and
 * NACKs always gives the same windows. NsccCongestionControl adapts it to RdmaQueuePair.
 */

namespace ns3
{

/**
 * \ingroup reps
 * What NSCC did with one piece of feedback (the Decision trace of NsccCongestionControl).
 */
enum class NsccDecision : uint8_t
{
    FAIR_INCREASE = 0,           //!< No ECN, delay >= target: a fixed increase accrues.
    PROPORTIONAL_INCREASE = 1,   //!< No ECN, delay < target: an increase in (target - delay).
    FAST_INCREASE = 2,           //!< No ECN, a window's worth of near-zero delay: grow at once.
    MULTIPLICATIVE_DECREASE = 3, //!< ECN, delay >= target: the window was cut.
    DECREASE_HELD = 4,           //!< ECN, delay >= target, but no cut (too soon, or low average).
    NO_CHANGE = 5,               //!< ECN, delay < target: nothing (a path problem, not a queue).
    QUICK_ADAPT = 6,             //!< The window fell to the bytes achieved in the last period.
    IGNORED = 7,                 //!< Marked feedback of the window sent before a quick adapt.
    NACK = 8,                    //!< A NACK took its packet off the window.
    TIMEOUT = 9,                 //!< The retransmission timer took its packet off the window.
    NACK_KEPT = 10, //!< A last-hop NACK under receiver credits: the window stays (the pacer acts).
};

/**
 * \param decision a decision
 * \return its name in traces and logs ("fair_increase", "quick_adapt", ...)
 */
const char* NsccDecisionName(NsccDecision decision);

/**
 * \ingroup reps
 * The configuration of one NSCC connection: the connection (rates, RTTs, packet size) and the
 * algorithm's constants, as NsccCongestionControl's attributes give them. The defaults are
 * those of the UEC's reference simulator; see the manual (doc/reps-uec-transport.rst) for each.
 */
struct NsccParameters
{
    // The connection.
    double mss{4096};           //!< Payload bytes of a full packet; also the least window.
    double lineRateBps{100e9};  //!< Rate of the NIC, bit/s.
    int64_t baseRttNs{8000};    //!< Unloaded RTT of the connection (the first base RTT).
    double bdpBytes{100000};    //!< Payload bytes in flight at line rate over baseRttNs.
    int64_t networkRttNs{8000}; //!< Unloaded RTT that scales the constants below.

    // Scaling to the reference network: a = network BDP / reference BDP,
    // b = target delay / reference RTT.
    double referenceRateBps{100e9}; //!< Rate of the reference network, bit/s.
    int64_t referenceRttNs{12000};  //!< RTT of the reference network.
    int64_t targetDelayNs{6000};    //!< Target queueing delay.
    double initialWindowBdp{1.5};   //!< Initial window, in BDPs of the connection.
    double maxWindowBdp{1.5};       //!< Largest window, in BDPs (of the current base RTT).
    double fairIncreaseMss{5};      //!< Fair increase per window acknowledged, MSS x a.
    double proportionalMss{4};      //!< Proportional increase at zero delay per window, MSS x ab.
    double etaMss{0.15};            //!< Additive increase per adjustment period, MSS x a.
    double fastIncreaseScale{0.25}; //!< Fast increase: window growth per acked byte, x a.
    int64_t fastIncreaseDelayNs{1000}; //!< Delay below which fast increase counts bytes.
    double gamma{0.8};                 //!< Multiplicative decrease gain.
    double minDecreaseFactor{0.5};     //!< Smallest factor of one multiplicative decrease.
    double delayEwma{0.0125};          //!< Weight of a sample in the smoothed delay.
    double largeDelayEwma{0.0125};     //!< Weight of a sample above largeDelayBaseRtts x base RTT.
    double largeDelayBaseRtts{5};      //!< Threshold of largeDelayEwma, in base RTTs.
    double unmarkedSampleBaseRtts{0.25}; //!< Unmarked sample above target counts as this x base.
    bool quickAdapt{true};               //!< Quick adapt enabled.
    double quickAdaptTargets{4};         //!< Delay that triggers quick adapt, in target delays.
    uint32_t quickAdaptGate{3};          //!< Quick adapt only when achieved < max window / 2^gate.
    double adjustBytesMss{8};            //!< Acked bytes that trigger an adjustment, in MSS.
    int64_t adjustPeriodNs{8000};        //!< Time that triggers an adjustment; eta's period.
    double nackDelayNetworkRtts{1};      //!< Delay sample a NACK injects, in network RTTs.
};

/**
 * \ingroup reps
 * NSCC for one connection (see the manual, chapter "UEC transport", section "NSCC"). Per ACK:
 * the RTT sample minus the base RTT is the queueing delay; with the ECN echo it selects one of
 * four cases (fair increase, proportional or fast increase, multiplicative decrease, nothing).
 * Increases accrue and are applied per adjustment; quick adapt (at most once per base RTT +
 * target delay) drops the window to what the last period achieved on a NACK or a large delay.
 */
class NsccCore
{
  public:
    /// \param p the configuration (not checked here: NsccCongestionControl::Validate does)
    explicit NsccCore(const NsccParameters& p);

    /// \param payloadBytes a data packet left (new or retransmitted)
    void OnSend(double payloadBytes);

    /**
     * An ACK came back.
     * \param nowNs the time
     * \param ackedBytes payload bytes it newly acknowledged
     * \param ce its ECN echo
     * \param rttNs its RTT sample, or a value <= 0 when it has none (the smoothed delay is used)
     * \return what was done
     */
    NsccDecision OnAck(int64_t nowNs, double ackedBytes, bool ce, int64_t rttNs);

    /**
     * A NACK came back: a delay sample of nackDelayNetworkRtts network RTTs and a quick adapt
     * are forced; without one, the packet leaves the window, unless keepWindow.
     * \param nowNs the time
     * \param bytes payload bytes of the NACKed packet
     * \param keepWindow leave the window as it is when no quick adapt fires (a packet trimmed at
     *        the receiver's last hop while receiver credits pace that port, as the reference
     *        simulator does when its receiver-based congestion control is on)
     * \return QUICK_ADAPT, IGNORED, NACK or NACK_KEPT
     */
    NsccDecision OnNack(int64_t nowNs, double bytes, bool keepWindow = false);

    /**
     * The retransmission timer declared a packet lost: it leaves the window.
     * \param bytes its payload bytes
     * \return TIMEOUT
     */
    NsccDecision OnTimeout(double bytes);

    /// \return the window, payload bytes (fractional)
    double GetWindow() const;
    /// \return the largest window now (maxWindowBdp x the BDP of the current base RTT)
    double GetMaxWindow() const;
    /// \return the least window (one MSS)
    double GetMinWindow() const;
    /// \return the smoothed queueing delay, ns
    double GetSmoothedDelay() const;
    /// \return the base RTT (least RTT sample, or the configured one), ns
    int64_t GetBaseRtt() const;
    /// \return the payload bytes this core counts in flight
    double GetBytesInFlight() const;
    /// \return the scaling factor a (network BDP / reference BDP)
    double GetScalingA() const;
    /// \return the scaling factor b (target delay / reference RTT)
    double GetScalingB() const;

  private:
    /// What QuickAdapt() did.
    enum class Qa : uint8_t
    {
        NONE,    //!< Nothing: go on with the four cases.
        FIRED,   //!< The window was set to the achieved bytes.
        IGNORED, //!< Marked feedback of the window in flight at the last quick adapt.
    };

    /// \param rttNs a sample: lowers the base RTT and the largest window when smaller
    void UpdateBaseRtt(int64_t rttNs);
    /// \param delayNs a delay sample \param ce its ECN echo
    void UpdateSmoothedDelay(double delayNs, bool ce);
    /// The quick-adapt gate (reference: once per base RTT + target).
    Qa QuickAdapt(int64_t nowNs, bool isLoss, bool ce, double delayNs);
    /// The four cases, then the adjustment.
    NsccDecision Decide(int64_t nowNs, double ackedBytes, bool ce, double delayNs);
    /// No ECN, delay < target: fast increase or proportional increase.
    NsccDecision ProportionalIncrease(double ackedBytes, double delayNs);
    /// ECN, delay >= target.
    NsccDecision MultiplicativeDecrease(int64_t nowNs);
    /// Apply the accrued increase (and eta once per adjustment period).
    void Adjust(int64_t nowNs);
    /// Keep the window within [min, max].
    void Clamp();

    NsccParameters m_p; //!< Configuration.
    double m_a;         //!< Scaling factor a.
    double m_b;         //!< Scaling factor b.
    double m_fair;      //!< Fair increase per acked byte, before the division by the window.
    double m_prop;      //!< Proportional increase per acked byte at zero delay, ditto.
    double m_eta;       //!< Additive increase per adjustment period, bytes.
    double m_fiScale;   //!< Fast increase per acked byte.
    double m_qaDelayNs; //!< Delay that triggers quick adapt.

    double m_cwnd;               //!< Window, payload bytes.
    double m_maxWnd;             //!< Largest window.
    int64_t m_baseRttNs;         //!< Base RTT.
    double m_avgDelayNs{0};      //!< Smoothed delay.
    double m_incBytes{0};        //!< Accrued increase (fair and proportional).
    double m_received{0};        //!< Bytes acked since the last adjustment.
    double m_achieved{0};        //!< Bytes acked since the last quick-adapt check.
    double m_ignored{0};         //!< Bytes acked or NACKed since the last quick adapt.
    double m_toIgnore{0};        //!< Bytes in flight at the last quick adapt.
    double m_inFlight{0};        //!< Bytes in flight.
    double m_fiCount{0};         //!< Bytes acked in a row with near-zero delay.
    bool m_fastIncrease{false};  //!< In fast increase.
    bool m_triggerQa{false};     //!< A NACK asked for a quick adapt.
    bool m_qaStarted{false};     //!< m_qaEndNs is set.
    int64_t m_qaEndNs{0};        //!< End of the current quick-adapt period.
    bool m_decreased{false};     //!< m_lastDecreaseNs is set.
    int64_t m_lastDecreaseNs{0}; //!< Time of the last multiplicative decrease.
    int64_t m_lastAdjustNs{0};   //!< Time eta was last added.
};

} // namespace ns3

#endif /* REPS_NSCC_CORE_H */
