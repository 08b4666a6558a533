/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PATH_SELECTOR_H
#define REPS_PATH_SELECTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
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
     * Start serving a connection.
     * \param context what the queue pair knows of the connection.
     */
    void Start(const PathSelectorContext& context);

    /**
     * \param retransmission whether the packet retransmits data sent before.
     * \return the EV of the next packet.
     */
    uint16_t NextEntropy(bool retransmission);

    /**
     * An ACK came back.
     * \param ev the EV echoed by the ACK (the one the acknowledged packet carried).
     * \param ecn the CE bit of the acknowledged packet, echoed by the ACK.
     * \param rtt the round-trip time measured for that packet (zero when unknown).
     */
    virtual void OnAck(uint16_t ev, bool ecn, Time rtt);

    /**
     * A NACK came back: the packet sent with \p ev was trimmed by a full queue.
     * \param ev the EV of the trimmed packet.
     */
    virtual void OnNack(uint16_t ev);

    /**
     * The packet sent with \p ev was declared lost.
     * \param ev the EV it carried.
     */
    virtual void OnLoss(uint16_t ev);

    /// The retransmission timer of the queue pair fired.
    virtual void OnTimeout();

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

    /**
     * \param why a reason.
     * \return its name ("fixed", "random", "explore", "recycled", "frozen", "round-robin").
     */
    static std::string ChoiceName(Choice why);

  protected:
    void DoDispose() override;

    /**
     * Choose the EV of the next packet.
     * \param retransmission whether the packet is a retransmission.
     * \param [out] why set to the reason for the choice.
     * \return the EV.
     */
    virtual uint16_t DoNextEntropy(bool retransmission, Choice& why) = 0;

    /// Called by Start() once the context is set; subclasses reset their state here.
    virtual void DoStart();

    /// \return an EV drawn uniformly from the entropy space.
    uint16_t RandomEntropy();

    /**
     * \param max the largest value
     * \return an integer drawn uniformly from [0, max], from the selector's random stream
     */
    uint32_t RandomInteger(uint32_t max);

  private:
    uint32_t m_entropySpace;                                //!< Number of distinct EVs.
    uint16_t m_entropyBase;                                 //!< Smallest EV.
    PathSelectorContext m_context;                          //!< The connection served.
    bool m_started;                                         //!< Start() was called.
    Ptr<UniformRandomVariable> m_rng;                       //!< Source of random EVs.
    TracedCallback<uint16_t, Choice, bool> m_entropyChosen; //!< EntropyChosen trace.
};

} // namespace ns3

#endif /* REPS_PATH_SELECTOR_H */
