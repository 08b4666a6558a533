/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NSCC_CONGESTION_CONTROL_H
#define REPS_NSCC_CONGESTION_CONTROL_H

#include "nscc-core.h"
#include "rdma-congestion-control.h"

#include "ns3/traced-callback.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup reps
 * NSCC, the sender-side congestion control of the Ultra Ethernet transport, as a window
 * controller of RdmaQueuePair: each ACK's queueing delay (RTT sample minus base RTT) and ECN
 * echo select fair increase, proportional (or fast) increase, multiplicative decrease or
 * nothing; quick adapt drops the window to the bytes achieved in the last period on a NACK or a
 * large delay. The rules are NsccCore's; this class gives them attributes (each constant, with
 * the UEC reference simulator's value as default) and trace sources.
 *
 * The window (payload bytes) is traced by CongestionWindow (rounded down), the smoothed delay
 * by SmoothedDelay and every decision by Decision. NSCC does not pace: the rate stays the line
 * rate.
 */
class NsccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NsccCongestionControl();
    ~NsccCongestionControl() override;

    /**
     * TracedCallback signature of Decision.
     * \param decision what was done
     * \param oldWindow the window before (payload bytes, rounded down)
     * \param newWindow the window after
     */
    typedef void (*DecisionTracedCallback)(NsccDecision decision,
                                           uint32_t oldWindow,
                                           uint32_t newWindow);

    std::string GetName() const override;

    std::string Validate(const RdmaCcContext& context) const override;
    void OnSend(uint32_t wireBytes) override;
    void OnAck(uint32_t ackedBytes, bool ce, Time rtt) override;
    void OnNack(uint32_t lostBytes, bool lastHop) override;
    void OnLoss(uint32_t lostBytes) override;

    /// \return the window as the core holds it (payload bytes, fractional)
    double GetExactWindow() const;
    /// \return the largest window (payload bytes)
    double GetMaxWindow() const;
    /// \return the target queueing delay in use (TargetDelay, or the one derived from it)
    Time GetTargetDelay() const;
    /// \return the smoothed queueing delay
    Time GetSmoothedDelay() const;
    /// \return the configuration given to the core (valid after Init())
    const NsccParameters& GetParameters() const;

  protected:
    void DoInit() override;

  private:
    /// \param tid the TypeId under construction \return it, with the network and target ones
    static TypeId AddNetworkAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the window attributes
    static TypeId AddWindowAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the delay and quick-adapt ones
    static TypeId AddDelayAttributes(TypeId tid);
    /// \param context a connection \return the core's configuration for it
    NsccParameters MakeParameters(const RdmaCcContext& context) const;
    /// \param context a connection \return NetworkRtt, or the connection's base RTT
    Time NetworkRttOf(const RdmaCcContext& context) const;
    /// \param context a connection \return TargetDelay, or the one derived from NetworkRtt
    Time TargetDelayOf(const RdmaCcContext& context) const;
    /// Publish the core's window and delay, and fire Decision.
    void Publish(NsccDecision decision, uint32_t oldWindow);

    Time m_networkRtt;          //!< NetworkRtt attribute.
    DataRate m_referenceRate;   //!< ReferenceRate attribute.
    Time m_referenceRtt;        //!< ReferenceRtt attribute.
    Time m_targetDelay;         //!< TargetDelay attribute.
    double m_trimmedTarget;     //!< TrimmedTargetDelay attribute, network RTTs.
    double m_untrimmedTarget;   //!< UntrimmedTargetDelay attribute, network RTTs.
    double m_initialBdp;        //!< InitialWindow attribute, BDPs.
    double m_maxBdp;            //!< MaxWindow attribute, BDPs.
    double m_fairIncrease;      //!< FairIncrease attribute.
    double m_proportional;      //!< ProportionalIncrease attribute.
    double m_eta;               //!< Eta attribute.
    double m_fastIncreaseScale; //!< FastIncreaseScale attribute.
    Time m_fastIncreaseDelay;   //!< FastIncreaseDelay attribute.
    double m_gamma;             //!< Gamma attribute.
    double m_minDecrease;       //!< MinDecreaseFactor attribute.
    double m_delayEwma;         //!< DelayEwmaWeight attribute.
    double m_largeDelayEwma;    //!< LargeDelayEwmaWeight attribute.
    double m_largeDelay;        //!< LargeDelayThreshold attribute, base RTTs.
    double m_unmarkedSample;    //!< UnmarkedDelaySample attribute, base RTTs.
    bool m_quickAdapt;          //!< QuickAdapt attribute.
    double m_qaThreshold;       //!< QuickAdaptThreshold attribute, target delays.
    uint32_t m_qaGate;          //!< QuickAdaptGate attribute.
    double m_adjustBytes;       //!< AdjustBytes attribute, MSS.
    Time m_adjustPeriod;        //!< AdjustPeriod attribute.
    double m_nackDelay;         //!< NackDelay attribute, network RTTs.

    NsccParameters m_params;                                          //!< The core's configuration.
    std::unique_ptr<NsccCore> m_core;                                 //!< The rules.
    TracedValue<Time> m_smoothedDelay;                                //!< Smoothed queueing delay.
    TracedCallback<NsccDecision, uint32_t, uint32_t> m_decisionTrace; //!< Decision trace.
};

} // namespace ns3

#endif /* REPS_NSCC_CONGESTION_CONTROL_H */
