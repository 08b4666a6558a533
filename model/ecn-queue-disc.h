/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ECN_QUEUE_DISC_H
#define REPS_ECN_QUEUE_DISC_H

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * The egress queue of a data-center switch port: ECN marking between Kmin and Kmax on the
 * instantaneous length of the data band (as DCQCN and DCTCP switches do), a hard capacity, a
 * strict-priority band for control packets, and optional packet trimming.
 *
 * Two bands. Band 0, served first (strict priority), holds control packets: when
 * ControlPriority is true (the default), every RoCEv2 packet (UDP destination port 4791) whose
 * BTH opcode is not a data opcode (ACKs, NACKs, CNPs), and always the headers left by
 * trimming. Band 1 holds everything else (data, and any non-RoCEv2 traffic such as TCP). With
 * ControlPriority false, control packets wait in the data band behind data, as in a switch
 * with one FIFO per port. The classification reads the packet, not its size.
 *
 * Marking (MarkOn attribute). With q the length of the data band in the unit of MaxSize:
 * q <= Kmin marks nothing; Kmin < q < Kmax marks with probability
 * MaxProbability * (q - Kmin) / (Kmax - Kmin); q >= Kmax marks every ECT packet (CE is set in
 * the IPv4 header, QueueDisc::Mark()). DEQUEUE (the default) decides as a data packet leaves,
 * from the length of the data band after it left, which is the freshest signal the switch
 * has; ENQUEUE decides as the packet arrives, from the length before it is added. Control
 * packets are never marked. A non-ECT packet that would have been marked is dropped instead
 * when DropNonEct is true, as RED with UseEcn does.
 *
 * Last hop. A queue whose port faces a host (SetLastHop(), set by ClosPlane) is the last hop
 * of its packets: what it trims carries the BTH's last-hop mark, and with LastHopEcn false it
 * marks nothing (nor drops a non-ECT packet early).
 *
 * A data packet that does not fit in MaxSize is dropped, or, when Trimming is on and it is a
 * RoCEv2 data packet (UDP destination port 4791, a data opcode in the BTH), cut to its UDP
 * and BTH headers plus the ICRC, marked trimmed in the BTH (RoceBthHeader::SetTrimmed()) and
 * queued in the priority band. Trimming happens in PrepareEnqueue(), which FabricSwitch calls
 * before handing the packet to the traffic-control layer: QueueDisc::Enqueue() checks that the
 * bytes it receives are the bytes it queues or drops, so the item it receives must already be
 * the trimmed one. A packet handed to Enqueue() without PrepareEnqueue() is dropped when it
 * does not fit, as without trimming. A control packet that does not fit in the priority band
 * (PriorityBandMaxSize) is dropped.
 *
 * ns-3's RedQueueDisc (UseEcn, QW = 1) can be used instead (ClosFabricHelper selects it); this
 * queue disc exists for what RED cannot do: trimming, dequeue marking, a control band, and
 * marking that depends only on the instantaneous length (RED's count-based spreading makes
 * its marking depend on history).
 *
 * Counters are plain integers (GetCounters()); the queue depth is also integrated over time so
 * that the time average needs no trace sink.
 */
class EcnQueueDisc : public QueueDisc
{
  public:
    /// Counters of one queue, read after a run.
    struct Counters
    {
        uint64_t enqueuedPackets{0}; //!< Packets accepted (data and trimmed).
        uint64_t enqueuedBytes{0};   //!< Bytes accepted (without the IPv4 header).
        uint64_t marks{0};           //!< ECT packets marked CE.
        uint64_t earlyDrops{0};      //!< Non-ECT packets dropped between Kmin and Kmax.
        uint64_t overflowDrops{0};   //!< Packets dropped because the queue was full.
        uint64_t trims{0};           //!< Packets trimmed instead of dropped.
        uint64_t controlPackets{0};  //!< Control packets queued in the priority band.
        uint32_t maxPackets{0};      //!< Largest length seen, in packets (both bands).
        uint32_t maxBytes{0};        //!< Largest length seen, in bytes (both bands).
    };

    /// Drop reason: the data band is full (and the packet could not be trimmed).
    static constexpr const char* OVERFLOW_DROP = "Overflow drop";
    /// Drop reason: a non-ECT packet dropped early between Kmin and Kmax.
    static constexpr const char* EARLY_DROP = "Early drop";
    /// Drop reason: the priority band (control packets, trimmed headers) is full.
    static constexpr const char* PRIORITY_BAND_DROP = "Priority-band overflow drop";
    /// Mark reason: the queue is above Kmin.
    static constexpr const char* ECN_MARK = "ECN mark";

    /// When the marking decision is taken.
    enum MarkOn
    {
        MARK_ON_ENQUEUE, //!< As the packet arrives, from the length it finds.
        MARK_ON_DEQUEUE, //!< As the packet leaves, from the length it leaves behind.
    };

    /// How a packet is trimmed.
    enum TrimMode
    {
        TRIM_HEADER, //!< To its IPv4, UDP and BTH headers and the ICRC (44 bytes).
        TRIM_UEC,    //!< To TrimSize bytes, DSCP rewritten to TrimmedDscp (UEC).
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EcnQueueDisc();
    ~EcnQueueDisc() override;

    /**
     * TracedCallback signature of the Trim trace source.
     * \param [in] item the trimmed packet, as queued in the priority band
     */
    typedef void (*TrimTracedCallback)(Ptr<const QueueDiscItem> item);

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned by this model
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the counters since the start of the run
    const Counters& GetCounters() const;

    /// \return the time-averaged length in bytes (both bands) from time 0 until now
    double GetAverageBytes() const;
    /// \return the time-averaged length in packets (both bands) from time 0 until now
    double GetAveragePackets() const;

    /**
     * The marking probability for a given data-band length, in the unit of MaxSize.
     * \param length the instantaneous length of the data band
     * \return the probability in [0, 1]
     */
    double GetMarkProbability(uint32_t length) const;

    /**
     * Trim a packet that will not fit. QueueDisc::Enqueue() counts the bytes it receives and
     * checks them against the bytes queued or dropped, so the trimmed copy must be what is
     * handed to Enqueue(): a switch calls this just before TrafficControlLayer::Send().
     * \param item the packet about to be enqueued
     * \return the trimmed copy when Trimming is on, the data band has no room for item and
     *         item is a RoCEv2 data packet; item otherwise
     */
    Ptr<QueueDiscItem> PrepareEnqueue(Ptr<QueueDiscItem> item);

    /// \return whether the Trimming attribute is on
    bool IsTrimming() const;

    /**
     * Tell the queue that its port faces a host: it is the last hop of the packets it sends
     * (the egress of the destination's leaf). ClosPlane calls it for every leaf port toward a
     * host. A packet this queue trims carries the last-hop mark in its BTH
     * (RoceBthHeader::SetTrimmedAtLastHop()), so that the receiver's NACK says the trim was
     * congestion at the receiver; with LastHopEcn false, the queue marks no ECN.
     * \param lastHop whether the port faces a host
     */
    void SetLastHop(bool lastHop);
    /// \return whether the port faces a host (see SetLastHop())
    bool IsLastHop() const;

    /**
     * Check the sizes this queue disc works with (CheckConfig() aborts with this message).
     * \return an empty string when MaxSize, PriorityBandMaxSize, Kmin and Kmax agree, else a
     *         sentence that names the attribute and the allowed range
     */
    std::string Validate() const;

    /**
     * Check the sizes of the queue discs a factory would create, before any is: the values the
     * factory is given, and the type's initial values (Config::SetDefault()) for the others.
     * \param factory a factory of ns3::EcnQueueDisc or of a subclass
     * \return an empty string when the sizes agree, else the message of Validate()
     */
    static std::string Validate(const ObjectFactory& factory);

    /**
     * Whether a packet is a RoCEv2 control packet or trimmed header: UDP destination port 4791
     * and a BTH whose opcode is not a data opcode, or whose trimmed bit is set.
     * \param item the packet, as handed to the queue disc
     * \return true for ACKs, NACKs, CNPs and trimmed headers
     */
    static bool IsControlPacket(Ptr<const QueueDiscItem> item);

    /**
     * Stop or restart the data band, as a PFC PAUSE frame for the lossless priority asks
     * (PfcPort): while stopped, only the priority band is served; on restart the queue disc
     * runs again.
     * \param paused true to stop the data band
     */
    void SetDataBandPaused(bool paused);
    /// \return whether the data band is stopped
    bool IsDataBandPaused() const;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * The rules of Validate().
     * \param maxSize MaxSize
     * \param priorityBandMaxSize PriorityBandMaxSize
     * \param kmin Kmin
     * \param kmax Kmax
     * \return an empty string, or the first rule broken
     */
    static std::string ValidateSizes(QueueSize maxSize,
                                     QueueSize priorityBandMaxSize,
                                     QueueSize kmin,
                                     QueueSize kmax);

    /**
     * Cut a RoCEv2 data packet to its headers.
     * \param item the packet that does not fit
     * \return the trimmed packet, or null when the packet is not a RoCEv2 data packet
     */
    Ptr<QueueDiscItem> Trim(Ptr<QueueDiscItem> item) const;
    /**
     * Whether the marking rule picks a packet at the given data-band length.
     * \param length the length of the data band, in the unit of MaxSize
     * \return true when the packet is to be marked (or, non-ECT, dropped)
     */
    bool DrawMark(uint32_t length);
    /// \return the length of the data band in the unit of MaxSize
    uint32_t DataLength() const;
    /// Accumulate the depth integral up to now (call before any length change).
    void Integrate();
    /// Record the new length after a change.
    void UpdateMax();
    /**
     * \param integral a length integrated over time up to the last change (length x ns).
     * \param length that length now, unchanged since the last change.
     * \return its time average from time 0 until now (0 at time 0).
     */
    double TimeAverage(double integral, uint32_t length) const;

    QueueSize m_kmin;                //!< Kmin attribute.
    QueueSize m_kmax;                //!< Kmax attribute.
    double m_maxProbability;         //!< Marking probability at Kmax.
    bool m_dropNonEct;               //!< DropNonEct attribute.
    bool m_trimming;                 //!< Trimming attribute.
    TrimMode m_trimMode;             //!< TrimMode attribute.
    uint32_t m_trimSize;             //!< TrimSize attribute (bytes, IPv4 header included).
    uint8_t m_trimmedDscp;           //!< TrimmedDscp attribute.
    bool m_controlPriority;          //!< ControlPriority attribute.
    MarkOn m_markOn;                 //!< MarkOn attribute.
    bool m_lastHop;                  //!< The port faces a host (SetLastHop()).
    bool m_lastHopEcn;               //!< LastHopEcn attribute.
    bool m_dataPaused;               //!< The data band is stopped (PFC).
    QueueSize m_prioBandSize;        //!< Capacity of the priority band.
    Ptr<UniformRandomVariable> m_uv; //!< Marking draws.
    Ptr<QueueDiscItem> m_trimmed;    //!< The copy PrepareEnqueue() made last, until enqueued.
    Ptr<InternalQueue> m_prio;       //!< Band 0 (control, trimmed), set by CheckConfig().
    Ptr<InternalQueue> m_data;       //!< Band 1 (data), set by CheckConfig().

    Counters m_counters;    //!< Counters.
    Time m_lastChange;      //!< Time of the last length change.
    double m_byteSeconds;   //!< Integral of the byte length over time (bytes x ns).
    double m_packetSeconds; //!< Integral of the packet length over time (packets x ns).

    TracedCallback<Ptr<const QueueDiscItem>> m_trimTrace; //!< Trim trace source.
};

} // namespace ns3

#endif /* REPS_ECN_QUEUE_DISC_H */
