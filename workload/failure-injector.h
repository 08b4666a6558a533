/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FAILURE_INJECTOR_H
#define REPS_FAILURE_INJECTOR_H

#include "ns3/clos-fabric.h"
#include "ns3/failure-schedule.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricLinkErrorModel;
class Packet;
class RateErrorModel;

/**
 * \ingroup reps
 * Plays a FailureSchedule on a ClosFabric: links and switches down and up, flapping, rate
 * changes, random packet loss and bit errors; and reports, per line of the schedule, the
 * packets lost and when the last one was lost.
 *
 * Schedule() resolves every element against the fabric and checks the order of the events of
 * each element (an `up` needs the element down, a `down` needs it up, a flap must not overlap
 * another down period of the element) before scheduling anything; the first problem is
 * returned with its line number. A link is down while it or one of its switches is down;
 * ClosFabric::FailLink takes it down and up, so routing reacts as to any failure
 * (RoutingConvergenceDelay). Loss and bit errors use ns-3's RateErrorModel (per packet or per
 * bit) on both directions of the link, from the streams given to AssignStreams.
 *
 * An `uplinks:` element is resolved once per distinct element, in the order of the events:
 * the first n uplinks of a leaf, or n drawn by a Shuffle of every leaf's uplinks with a
 * UniformRandomVariable on the element's stream (one variable per drawn element, created when
 * Schedule() resolves it). This is the module's one way to pick links at random for a fault;
 * GetEventLinks() tells which were picked.
 *
 * Outcome of a down period: the packets lost on the element's links while it was down, and
 * the time from the failure to the last of them: how long senders kept sending into the dead
 * element (with routing that never reconverges, the path selectors' reaction time).
 */
class FailureInjector : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FailureInjector();
    ~FailureInjector() override;

    /// What one line of the schedule did.
    struct Outcome
    {
        uint32_t line{0};          //!< Its line.
        std::string element;       //!< The element as written.
        std::string action;        //!< down, flap, rate, loss or ber.
        Time at;                   //!< When it started.
        uint64_t drops{0};         //!< Packets lost on the element while down (down, flap).
        Time lastDrop{Seconds(0)}; //!< When the last of them was lost (valid if drops > 0).
        uint64_t lost{0};          //!< Packets the loss or bit errors lost (loss, ber).
    };

    /**
     * Check the events against the fabric and schedule them.
     * \param fabric the fabric
     * \param events the events (FailureSchedule::Parse or Load)
     * \return an empty string, or "line N: ..." naming what is wrong; nothing is scheduled then
     */
    std::string Schedule(Ptr<ClosFabric> fabric, const std::vector<FailureSchedule::Event>& events);

    /**
     * \param stream first stream index for the loss and bit-error models
     * \return the number of streams it may use (one per link of a loss or ber line)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return one outcome per line that takes an element down, changes a rate or loses
    ///         packets, but those of events not reported (FailureSchedule::Event::reported)
    std::vector<Outcome> GetOutcomes() const;

    /**
     * \param event the index of an event in the vector given to Schedule()
     * \return the links it acts on (uplinks: in the order picked, the k-th acting k gaps
     *         after the event's time); empty before Schedule() or when the index is past the end.
     *         A link below ClosFabric::GetNLinks() is a link of the planes; link
     *         GetNLinks() + h is host h's scale-up link (ScaleUpDomain)
     */
    std::vector<uint32_t> GetEventLinks(size_t event) const;

    /**
     * \param link a link as GetEventLinks() numbers them
     * \return its name (leaf0-spine1, host3-scaleup0)
     */
    std::string GetLinkName(uint32_t link) const;
    /// \return the links GetEventLinks() numbers: the planes' and the scale-up links (0 before
    ///         Schedule())
    uint32_t GetNLinks() const;

  protected:
    void DoDispose() override;

  private:
    /// A period during which a link is down.
    struct DownPeriod
    {
        int64_t startNs; //!< From.
        int64_t endNs;   //!< Until (MAX: for good).
        size_t outcome;  //!< Index in m_outcomes.
    };

    /**
     * Find the links of an element.
     * \param e the event
     * \param[out] links its links
     * \return an empty string, or what is wrong
     */
    std::string Resolve(const FailureSchedule::Event& e, std::vector<uint32_t>& links) const;

    /// \param name a node's name \return the node of the fabric or its scale-up domain, or null
    Ptr<Node> FindNode(const std::string& name) const;
    /**
     * Find the scale-up links of an element that names a scale-up switch.
     * \param e the event
     * \param a its first node
     * \param b its second node (null for a switch element)
     * \param[out] links their links
     * \return an empty string, or what is wrong
     */
    std::string ResolveScaleUp(const FailureSchedule::Event& e,
                               Ptr<Node> a,
                               Ptr<Node> b,
                               std::vector<uint32_t>& links) const;
    /// \param link a link \param side an end \return the receive error model at that end
    Ptr<FabricLinkErrorModel> ReceiverAt(uint32_t link, uint32_t side) const;
    /// Take a link down and up. \param link the link \param at when \param upAt until when
    void FailLink(uint32_t link, Time at, Time upAt) const;
    /// Change a link's rate. \param link the link \param rate the rate \param at when
    void DegradeLink(uint32_t link, DataRate rate, Time at) const;

    /**
     * Pick the leaf uplinks of an uplinks element.
     * \param e the event
     * \param[out] links the uplinks, in the order picked
     * \return an empty string, or what is wrong
     */
    std::string PickUplinks(const FailureSchedule::Event& e, std::vector<uint32_t>& links) const;

    /**
     * Check the down and up events of every element in time order and turn them into down
     * periods per link, with one outcome per line that takes an element down.
     * \param events the events
     * \param links the links of each event
     * \param[out] down the down periods of each link
     * \param[out] outcomes the outcomes of the down and flap lines
     * \param[out] outcomeOf per event, its outcome's index (or none)
     * \return an empty string, or "line N: ..." naming what is wrong
     */
    static std::string DownPeriods(const std::vector<FailureSchedule::Event>& events,
                                   const std::vector<std::vector<uint32_t>>& links,
                                   std::vector<std::vector<DownPeriod>>& down,
                                   std::vector<Outcome>& outcomes,
                                   std::vector<size_t>& outcomeOf);

    /// Take every link down over the union of its down periods; count its drops.
    void ScheduleDowns();

    /**
     * Schedule the rate changes, loss and bit errors.
     * \param events the events
     * \param links the links of each event
     * \param outcomeOf per event, its outcome's index
     */
    void ScheduleChanges(const std::vector<FailureSchedule::Event>& events,
                         const std::vector<std::vector<uint32_t>>& links,
                         const std::vector<size_t>& outcomeOf);

    /**
     * A packet was lost on a down link: count it for every down period covering now.
     * \param self the injector
     * \param link the link
     * \param packet the packet
     */
    static void DropSink(FailureInjector* self, uint32_t link, Ptr<const Packet> packet);

    /**
     * A packet was lost by the loss model of a link: count it for the line in force.
     * \param self the injector
     * \param link the link
     * \param packet the packet
     */
    static void LossSink(FailureInjector* self, uint32_t link, Ptr<const Packet> packet);

    /**
     * Install a loss model on both directions of a link.
     * \param link the link
     * \param model the model (null: none)
     * \param outcome index in m_outcomes of the line
     */
    void SetLoss(uint32_t link, Ptr<RateErrorModel> model, size_t outcome);

    Ptr<ClosFabric> m_fabric;                    //!< The fabric.
    std::vector<Outcome> m_outcomes;             //!< One per reported line.
    std::vector<std::vector<DownPeriod>> m_down; //!< Down periods per link.
    std::vector<size_t> m_lossOutcome;           //!< Per link: the loss line in force.
    std::vector<Ptr<RateErrorModel>> m_models;   //!< Loss and bit-error models.
    std::vector<std::vector<uint32_t>> m_links;  //!< The links of each event.
    std::vector<bool> m_reported;                //!< Per outcome: whether it is reported.
    int64_t m_stream;                            //!< First stream of the models (-1: auto).
};

} // namespace ns3

#endif /* REPS_FAILURE_INJECTOR_H */
