/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_GLB_PORT_SELECTOR_H
#define REPS_GLB_PORT_SELECTOR_H

#include "dlb-port-selector.h"

#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Global, congestion-aware load balancing (GLB, the idea of CONGA): DLB (flowlets, port
 * quality), except that a leaf gives a new flowlet going up the up-link whose path to the
 * destination leaf has the smallest worst hop: the larger of the leaf's own metric of the
 * up-link (GetGlbMetric(): the quality scaled to GLB_LEVELS levels) and the congestion-to-leaf
 * entry of (destination leaf, up-link). Other switches choose as DLB and raise the metric the
 * packets carry.
 *
 * The metrics travel in the 16-bit IPv4 Identification of unfragmented packets (DoForward()):
 * a source leaf writes its up-link, its metric and one feedback entry; a switch between the
 * leaves raises the metric to its egress port's; the destination leaf stores the metric
 * (congestion from the source leaf) and the feedback entry (congestion to the source leaf).
 * Entries older than GlbAgingTime are ignored. The switch learns where it is from
 * SetTopology() (ClosFabricHelper calls it).
 */
class GlbPortSelector : public DlbPortSelector
{
  public:
    /// The value of a 5-bit up-link field that carries nothing.
    static constexpr uint32_t GLB_NONE = 31;
    /// Number of metric levels carried (3 bits).
    static constexpr uint32_t GLB_LEVELS = 8;

    /// The fields carried in the 16-bit IPv4 Identification of an unfragmented packet.
    struct GlbFields
    {
        uint32_t upLink{GLB_NONE}; //!< Forward: the source leaf's up-link (position in its set).
        uint32_t metric{0};        //!< Forward: the worst hop metric so far (0 to 7).
        uint32_t fbUpLink{
            GLB_NONE}; //!< Feedback: an up-link of the receiving leaf toward the sender's leaf.
        uint32_t fbMetric{0}; //!< Feedback: that path's metric (0 to 7).
    };

    /**
     * \param f the fields
     * \return the 16-bit value (up-link 5 bits, metric 3, feedback up-link 5, feedback metric 3)
     */
    static uint16_t EncodeGlb(const GlbFields& f);
    /**
     * \param id the 16-bit value
     * \return the fields
     */
    static GlbFields DecodeGlb(uint16_t id);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GlbPortSelector();
    ~GlbPortSelector() override;

    /**
     * Tell the switch where it is. Leaves run GLB on their up-links; other switches only raise
     * the metric carried by the packets they forward.
     * \param leaf this switch's leaf number, or UINT32_MAX when it is not a leaf
     * \param hostLeaf the leaf of every host
     * \param nLeaves the number of leaves
     */
    void SetTopology(uint32_t leaf, const std::vector<uint32_t>& hostLeaf, uint32_t nLeaves);

    /**
     * \param port a port
     * \return its GLB metric: the quality scaled to GLB_LEVELS levels
     */
    uint32_t GetGlbMetric(uint32_t port) const;
    /**
     * \param dstLeaf a leaf
     * \param upLink an up-link of this leaf (position in its set)
     * \return the metric last fed back for that path, or -1 if none or older than GlbAgingTime
     */
    int32_t GetCongestionToLeaf(uint32_t dstLeaf, uint32_t upLink) const;
    /**
     * \param srcLeaf a leaf
     * \param upLink an up-link of that leaf (position in its set)
     * \return the metric last carried by a packet on that path, or -1 if none or stale
     */
    int32_t GetCongestionFromLeaf(uint32_t srcLeaf, uint32_t upLink) const;
    /// \return the congestion-to-leaf entries received on packets (feedback)
    uint64_t GetFeedbackCount() const;

  protected:
    int64_t FlowletLevel(const uint32_t* ports,
                         uint32_t n,
                         uint32_t k,
                         const Flow& flow) const override;
    void DoForward(Ipv4Header& ip,
                   const uint32_t* ports,
                   uint32_t n,
                   uint32_t outPort,
                   const Flow& flow) override;

  private:
    /// A GLB metric and when it was learnt.
    struct GlbEntry
    {
        int64_t atNs{0};   //!< When.
        uint8_t metric{0}; //!< Metric, 0 to 7.
        bool valid{false}; //!< Ever learnt.
    };

    /**
     * \param n the number of equal-cost ports
     * \param flow a packet's flow
     * \return its destination leaf when this leaf sends it up with GLB, else UINT32_MAX
     */
    uint32_t UpToLeaf(uint32_t n, const Flow& flow) const;
    /**
     * \param table a GLB table
     * \param leaf a leaf
     * \param upLink an up-link
     * \return its entry's metric, or -1 if none or stale
     */
    int32_t ReadGlb(const std::vector<GlbEntry>& table, uint32_t leaf, uint32_t upLink) const;
    /**
     * The source leaf's fields for a packet to another leaf: its up-link, its metric and one
     * feedback entry, round robin over the entries of the destination leaf that are not stale.
     * \param ports the equal-cost ports
     * \param n their number
     * \param outPort the egress port
     * \param dstLeaf the destination leaf
     * \return the fields
     */
    GlbFields SourceFields(const uint32_t* ports, uint32_t n, uint32_t outPort, uint32_t dstLeaf);

    Time m_glbAging;                  //!< GlbAgingTime attribute.
    uint32_t m_glbLeaf;               //!< This leaf's number (UINT32_MAX: not a leaf).
    std::vector<uint32_t> m_hostLeaf; //!< Leaf of every host.
    std::vector<GlbEntry> m_toLeaf;   //!< [leaf * 31 + up-link]: congestion to a leaf.
    std::vector<GlbEntry> m_fromLeaf; //!< [leaf * 31 + up-link]: congestion from a leaf.
    std::vector<uint8_t> m_fbNext;    //!< Per leaf: next feedback entry (round robin).
    uint64_t m_feedback;              //!< Congestion-to-leaf entries received.
};

} // namespace ns3

#endif /* REPS_GLB_PORT_SELECTOR_H */
