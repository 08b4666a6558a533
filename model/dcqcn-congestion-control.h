/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_DCQCN_CONGESTION_CONTROL_H
#define REPS_DCQCN_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup reps
 * DCQCN (Zhu et al., SIGCOMM 2015), the rate-based congestion control of RoCEv2.
 *
 * Receiver (notification point): a CE-marked data packet makes the receiving queue pair send a
 * CNP to the sender, at most one per CnpInterval.
 *
 * Sender (reaction point), with current rate Rc, target rate Rt and alpha:
 * - on a CNP (at most one cut per RateDecreaseInterval): alpha first decays by (1 - g) for
 *   every whole AlphaUpdateInterval without a CNP since it was last updated, then Rt = Rc,
 *   Rc = Rc (1 - alpha / 2) (not below MinRate), alpha = (1 - g) alpha + g; both increase
 *   counters restart;
 * - increase events come from a timer (every RateIncreaseInterval) and a byte counter (every
 *   ByteCounter bytes sent); with T and B the two event counts since the last cut:
 *   fast recovery while max(T, B) <= F, i.e. for the first F events (Rc = (Rt + Rc) / 2), hyper
 * increase when min(T, B) > F (Rt += (min(T, B) - F) RHai, then Rc = (Rt + Rc) / 2), additive
 * increase otherwise (Rt += RAi, then Rc = (Rt + Rc) / 2); Rt never exceeds the line rate.
 * - once Rc is within 0.01% of the line rate it is set to the line rate and the timer stops
 *   (so an idle simulation can end).
 *
 * Alpha's timer is evaluated lazily (on the next CNP), which gives the same alpha as a timer
 * without scheduling an event every AlphaUpdateInterval for every queue pair.
 * DCQCN does not limit the window.
 */
class DcqcnCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DcqcnCongestionControl();
    ~DcqcnCongestionControl() override;

    std::string GetName() const override;

    std::string Validate(const RdmaCcContext& context) const override;
    void OnSend(uint32_t wireBytes) override;
    void OnCnp() override;
    Time GetCnpInterval() const override;

    /// \return alpha, as last updated
    double GetAlpha() const;
    /// \return the target rate Rt
    DataRate GetTargetRate() const;

  protected:
    void DoInit() override;
    void DoDispose() override;

  private:
    /// The rate-increase timer fired.
    void IncreaseTimer();
    /// One increase event (timer or byte counter).
    void Increase();
    /// Publish m_rc as the rate.
    void ApplyRate();

    double m_g;                   //!< AlphaGain attribute.
    double m_initialAlpha;        //!< InitialAlpha attribute.
    Time m_alphaInterval;         //!< AlphaUpdateInterval attribute (K).
    Time m_increaseInterval;      //!< RateIncreaseInterval attribute (T).
    uint64_t m_byteCounter;       //!< ByteCounter attribute (B), bytes.
    uint32_t m_fastRecoverySteps; //!< FastRecoverySteps attribute (F).
    DataRate m_rai;               //!< AdditiveIncrease attribute.
    DataRate m_rhai;              //!< HyperIncrease attribute.
    DataRate m_minRate;           //!< MinRate attribute.
    Time m_decreaseInterval;      //!< RateDecreaseInterval attribute.
    Time m_cnpInterval;           //!< CnpInterval attribute.

    double m_alpha;          //!< Alpha.
    Time m_alphaUpdated;     //!< When alpha was last updated.
    Time m_lastDecrease;     //!< When the rate was last cut.
    bool m_decreased;        //!< The rate was cut at least once.
    double m_rc;             //!< Current rate, bit/s.
    double m_rt;             //!< Target rate, bit/s.
    uint32_t m_timerCount;   //!< T: timer events since the last cut.
    uint32_t m_byteCount;    //!< B: byte-counter events since the last cut.
    uint64_t m_bytesSent;    //!< Bytes sent since the last byte-counter event.
    EventId m_increaseEvent; //!< Rate-increase timer.
};

} // namespace ns3

#endif /* REPS_DCQCN_CONGESTION_CONTROL_H */
