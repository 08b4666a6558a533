/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "failure-injector.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fabric-link-error-model.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scale-up-domain.h"
#include "ns3/shuffle.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureInjector");

NS_OBJECT_ENSURE_REGISTERED(FailureInjector);

namespace
{

/// A down period that never ends.
constexpr int64_t FOREVER = std::numeric_limits<int64_t>::max();
/// No outcome.
constexpr size_t NONE = std::numeric_limits<size_t>::max();

/// An element going down or up, from one line (a flap gives several).
struct Step
{
    int64_t t;         //!< When.
    bool down;         //!< Down (true) or up.
    size_t event;      //!< Index of the line's event.
    uint32_t sequence; //!< Order among the steps of one line.
};

/**
 * \param events the events of a schedule
 * \return the down and up steps of every element (flaps expanded), not yet sorted
 */
std::map<std::string, std::vector<Step>>
StepsByElement(const std::vector<FailureSchedule::Event>& events)
{
    // Down and up steps per element, in time order (then line order).
    std::map<std::string, std::vector<Step>> steps;
    for (size_t i = 0; i < events.size(); ++i)
    {
        const FailureSchedule::Event& e = events[i];
        std::vector<Step>& s = steps[e.GetElement()];
        if (e.action == FailureSchedule::DOWN || e.action == FailureSchedule::UP)
        {
            s.push_back({e.timeNs, e.action == FailureSchedule::DOWN, i, 0});
        }
        else if (e.action == FailureSchedule::FLAP)
        {
            for (uint32_t k = 0; k < e.count; ++k)
            {
                int64_t t = e.timeNs + static_cast<int64_t>(k) * e.periodNs;
                s.push_back({t, true, i, 2 * k});
                s.push_back({t + e.downNs, false, i, 2 * k + 1});
            }
        }
    }
    return steps;
}

} // namespace

TypeId
FailureInjector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FailureInjector")
                            .SetParent<Object>()
                            .SetGroupName("Reps")
                            .AddConstructor<FailureInjector>();
    return tid;
}

FailureInjector::FailureInjector()
    : m_stream(-1)
{
    NS_LOG_FUNCTION(this);
}

FailureInjector::~FailureInjector()
{
    NS_LOG_FUNCTION(this);
}

void
FailureInjector::DoDispose()
{
    m_fabric = nullptr;
    m_models.clear();
    m_links.clear();
    Object::DoDispose();
}

Ptr<Node>
FailureInjector::FindNode(const std::string& name) const
{
    Ptr<ScaleUpDomain> scaleUp = m_fabric->GetScaleUp();
    for (NodeContainer c : {m_fabric->GetHosts(),
                            m_fabric->GetSwitches(),
                            scaleUp ? scaleUp->GetSwitches() : NodeContainer()})
    {
        for (uint32_t i = 0; i < c.GetN(); ++i)
        {
            if (m_fabric->GetNodeName(c.Get(i)) == name)
            {
                return c.Get(i);
            }
        }
    }
    return nullptr;
}

std::string
FailureInjector::Resolve(const FailureSchedule::Event& e, std::vector<uint32_t>& links) const
{
    links.clear();
    if (e.isUplinks)
    {
        return PickUplinks(e, links);
    }
    if (e.isPlane)
    {
        if (e.plane >= m_fabric->GetNPlanes())
        {
            return "element '" + e.GetElement() + "': no plane " + std::to_string(e.plane) +
                   " in this fabric (it has " + std::to_string(m_fabric->GetNPlanes()) +
                   (m_fabric->GetNPlanes() == 1
                        ? " plane: plane 0)"
                        : " planes: 0 to " + std::to_string(m_fabric->GetNPlanes() - 1) + ")");
        }
        for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
        {
            if (m_fabric->GetPlaneOfLink(link) == e.plane)
            {
                links.push_back(link);
            }
        }
        return "";
    }
    Ptr<ScaleUpDomain> scaleUp = m_fabric->GetScaleUp();
    Ptr<Node> a = FindNode(e.nodeA);
    if (!a)
    {
        return "element '" + e.GetElement() + "': no node '" + e.nodeA + "' in this fabric";
    }
    if (e.isSwitch && scaleUp && scaleUp->HasSwitch(a))
    {
        return ResolveScaleUp(e, a, nullptr, links);
    }
    if (e.isSwitch)
    {
        if (m_fabric->GetRole(a) == ClosFabric::HOST)
        {
            return "element '" + e.GetElement() + "': " + e.nodeA +
                   " is a host, not a switch (a host's link is link:<host>-<leaf>)";
        }
        for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
        {
            if (m_fabric->GetLinkNode(link, 0) == a || m_fabric->GetLinkNode(link, 1) == a)
            {
                links.push_back(link);
            }
        }
        return "";
    }
    Ptr<Node> b = FindNode(e.nodeB);
    if (!b)
    {
        return "element '" + e.GetElement() + "': no node '" + e.nodeB + "' in this fabric";
    }
    if (scaleUp && (scaleUp->HasSwitch(a) || scaleUp->HasSwitch(b)))
    {
        return ResolveScaleUp(e, a, b, links);
    }
    uint32_t link = m_fabric->FindLink(a, b, e.parallel);
    if (link == ClosFabric::NO_LINK)
    {
        return "element '" + e.GetElement() + "': no such link in this fabric (" + e.nodeA +
               " and " + e.nodeB + " are not linked" +
               (e.parallel ? ", or have fewer parallel links" : "") + ")";
    }
    links.push_back(link);
    return "";
}

std::string
FailureInjector::ResolveScaleUp(const FailureSchedule::Event& e,
                                Ptr<Node> a,
                                Ptr<Node> b,
                                std::vector<uint32_t>& links) const
{
    Ptr<ScaleUpDomain> scaleUp = m_fabric->GetScaleUp();
    const uint32_t first = m_fabric->GetNLinks();
    if (!b)
    {
        // Every link of the server's switch: its GPUs' links.
        for (uint32_t h = 0; h < scaleUp->GetNLinks(); ++h)
        {
            if (scaleUp->GetSwitch(scaleUp->GetServerOfHost(h)) == a)
            {
                links.push_back(first + h);
            }
        }
        return "";
    }
    Ptr<Node> sw = scaleUp->HasSwitch(a) ? a : b;
    Ptr<Node> other = sw == a ? b : a;
    for (uint32_t h = 0; h < scaleUp->GetNLinks(); ++h)
    {
        if (m_fabric->GetHost(h) == other && scaleUp->GetSwitch(scaleUp->GetServerOfHost(h)) == sw)
        {
            if (e.parallel > 0)
            {
                return "element '" + e.GetElement() + "': a GPU has one scale-up link (#0), not #" +
                       std::to_string(e.parallel);
            }
            links.push_back(first + h);
            return "";
        }
    }
    return "element '" + e.GetElement() + "': no such link in this fabric (" + e.nodeA + " and " +
           e.nodeB + " are not linked; a scale-up switch scaleup<s> links the GPUs of server s)";
}

uint32_t
FailureInjector::GetNLinks() const
{
    if (!m_fabric)
    {
        return 0;
    }
    Ptr<ScaleUpDomain> scaleUp = m_fabric->GetScaleUp();
    return m_fabric->GetNLinks() + (scaleUp ? scaleUp->GetNLinks() : 0);
}

Ptr<FabricLinkErrorModel>
FailureInjector::ReceiverAt(uint32_t link, uint32_t side) const
{
    const uint32_t planes = m_fabric->GetNLinks();
    PointerValue v;
    (link < planes ? Ptr<NetDevice>(m_fabric->GetLinkDevice(link, side))
                   : Ptr<NetDevice>(m_fabric->GetScaleUp()->GetLinkDevice(link - planes, side)))
        ->GetAttribute("ReceiveErrorModel", v);
    return v.Get<FabricLinkErrorModel>();
}

void
FailureInjector::FailLink(uint32_t link, Time at, Time upAt) const
{
    const uint32_t planes = m_fabric->GetNLinks();
    if (link < planes)
    {
        m_fabric->FailLink(link, at, upAt);
    }
    else
    {
        m_fabric->GetScaleUp()->FailLink(link - planes, at, upAt);
    }
}

void
FailureInjector::DegradeLink(uint32_t link, DataRate rate, Time at) const
{
    const uint32_t planes = m_fabric->GetNLinks();
    if (link < planes)
    {
        m_fabric->DegradeLink(link, rate, at);
    }
    else
    {
        m_fabric->GetScaleUp()->DegradeLink(link - planes, rate, at);
    }
}

std::string
FailureInjector::GetLinkName(uint32_t link) const
{
    NS_ABORT_MSG_IF(link >= GetNLinks(),
                    "FailureInjector::GetLinkName: no link " << link << " (call Schedule() first)");
    const uint32_t planes = m_fabric->GetNLinks();
    return link < planes ? m_fabric->GetLinkName(link)
                         : m_fabric->GetScaleUp()->GetLinkName(link - planes);
}

std::string
FailureInjector::PickUplinks(const FailureSchedule::Event& e, std::vector<uint32_t>& links) const
{
    const uint32_t nLeaves = m_fabric->GetNLeaves();
    if (e.leaf >= 0 && static_cast<uint32_t>(e.leaf) >= nLeaves)
    {
        return "element '" + e.GetElement() + "': no leaf " + std::to_string(e.leaf) +
               " in this fabric (leaves 0 to " + std::to_string(nLeaves - 1) + ")";
    }
    const bool twoTier = m_fabric->GetNTiers() == 2;
    // The uplinks of every plane, plane by plane (links numbered across the planes), each
    // plane's leaf by leaf.
    for (uint32_t p = 0; p < m_fabric->GetNPlanes(); ++p)
    {
        Ptr<ClosPlane> plane = m_fabric->GetPlane(p);
        const uint32_t first = m_fabric->GetPlaneFirstLink(p);
        const uint32_t ups = twoTier ? plane->GetNSpines() : plane->GetNAggsPerPod();
        for (uint32_t l = 0; l < nLeaves; ++l)
        {
            if (e.leaf >= 0 && l != static_cast<uint32_t>(e.leaf))
            {
                continue;
            }
            for (uint32_t u = 0; u < ups; ++u)
            {
                links.push_back(first + (twoTier ? plane->GetLeafSpineLink(l, u)
                                                 : plane->GetLeafAggLink(l, u)));
            }
        }
    }
    if (e.uplinks > links.size())
    {
        std::string where =
            e.leaf >= 0 ? "leaf " + std::to_string(e.leaf) + " has " : "the fabric has ";
        size_t n = links.size();
        links.clear();
        return "element '" + e.GetElement() + "': " + std::to_string(e.uplinks) +
               " uplinks asked, " + where + std::to_string(n) + " (of every plane)";
    }
    if (e.leaf < 0)
    {
        // The same stream and run number (--RngRun) draw the same links in the same order.
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(e.stream);
        Shuffle(links, rng);
    }
    // Else the first uplinks of the leaf, in order: a reproducible, easy-to-name choice.
    links.resize(e.uplinks);
    return "";
}

std::string
FailureInjector::Schedule(Ptr<ClosFabric> fabric, const std::vector<FailureSchedule::Event>& events)
{
    NS_LOG_FUNCTION(this << fabric);
    NS_ABORT_MSG_UNLESS(fabric, "FailureInjector: no fabric");
    NS_ABORT_MSG_UNLESS(m_outcomes.empty(), "FailureInjector: Schedule() called twice");
    m_fabric = fabric;
    const uint32_t nLinks = GetNLinks();
    std::vector<std::vector<uint32_t>> links(events.size());
    // Each element once: the lines of one drawn element act on the same links.
    std::map<std::string, size_t> resolved;
    for (size_t i = 0; i < events.size(); ++i)
    {
        auto [it, first] = resolved.emplace(events[i].GetElement(), i);
        if (!first)
        {
            links[i] = links[it->second];
            continue;
        }
        std::string error = Resolve(events[i], links[i]);
        if (!error.empty())
        {
            return "line " + std::to_string(events[i].line) + ": " + error;
        }
    }
    std::vector<std::vector<DownPeriod>> down(nLinks);
    std::vector<Outcome> outcomes;
    std::vector<size_t> outcomeOf(events.size(), NONE);
    std::string error = DownPeriods(events, links, down, outcomes, outcomeOf);
    if (!error.empty())
    {
        return error;
    }
    // Everything checks: record the other outcomes and schedule.
    for (size_t i = 0; i < events.size(); ++i)
    {
        const FailureSchedule::Event& e = events[i];
        if (e.action == FailureSchedule::RATE || e.action == FailureSchedule::LOSS ||
            e.action == FailureSchedule::BER)
        {
            outcomeOf[i] = outcomes.size();
            Outcome o;
            o.line = e.line;
            o.element = e.GetElement();
            o.action = e.action == FailureSchedule::RATE   ? "rate"
                       : e.action == FailureSchedule::LOSS ? "loss"
                                                           : "ber";
            o.at = NanoSeconds(e.timeNs);
            outcomes.push_back(o);
        }
    }
    m_outcomes = outcomes;
    m_reported.assign(outcomes.size(), true);
    for (size_t i = 0; i < events.size(); ++i)
    {
        if (outcomeOf[i] != NONE && !events[i].reported)
        {
            m_reported[outcomeOf[i]] = false;
        }
    }
    m_down = down;
    m_links = links;
    m_lossOutcome.assign(nLinks, NONE);
    ScheduleDowns();
    ScheduleChanges(events, links, outcomeOf);
    if (m_stream >= 0)
    {
        AssignStreams(m_stream);
    }
    return "";
}

std::string
FailureInjector::DownPeriods(const std::vector<FailureSchedule::Event>& events,
                             const std::vector<std::vector<uint32_t>>& links,
                             std::vector<std::vector<DownPeriod>>& down,
                             std::vector<Outcome>& outcomes,
                             std::vector<size_t>& outcomeOf)
{
    std::map<std::string, std::vector<Step>> steps = StepsByElement(events);
    for (auto& [element, s] : steps)
    {
        std::stable_sort(s.begin(), s.end(), [&events](const Step& x, const Step& y) {
            if (x.t != y.t)
            {
                return x.t < y.t;
            }
            return events[x.event].line != events[y.event].line
                       ? events[x.event].line < events[y.event].line
                       : x.sequence < y.sequence;
        });
        bool isDown = false;
        const Step* opened = nullptr;
        for (const Step& step : s)
        {
            const FailureSchedule::Event& e = events[step.event];
            std::string at = "line " + std::to_string(e.line) + ": " + element;
            if (step.down && isDown)
            {
                return at + " is already down at that time (since line " +
                       std::to_string(events[opened->event].line) + ")";
            }
            if (!step.down && !isDown)
            {
                return at + " is not down at that time; allowed: 'up' after a 'down' of the "
                            "same element";
            }
            if (!step.down && step.t == opened->t)
            {
                return at + " comes up at the time it went down (line " +
                       std::to_string(events[opened->event].line) + ")";
            }
            if (step.down)
            {
                isDown = true;
                opened = &step;
                if (outcomeOf[step.event] == NONE)
                {
                    outcomeOf[step.event] = outcomes.size();
                    Outcome o;
                    o.line = e.line;
                    o.element = element;
                    o.action = e.action == FailureSchedule::FLAP ? "flap" : "down";
                    o.at = NanoSeconds(step.t);
                    outcomes.push_back(o);
                }
                continue;
            }
            isDown = false;
            const std::vector<uint32_t>& l = links[opened->event];
            const int64_t gap = events[opened->event].gapNs;
            for (size_t k = 0; k < l.size(); ++k)
            {
                const int64_t shift = static_cast<int64_t>(k) * gap;
                down[l[k]].push_back({opened->t + shift, step.t + shift, outcomeOf[opened->event]});
            }
            opened = nullptr;
        }
        if (isDown)
        {
            const std::vector<uint32_t>& l = links[opened->event];
            const int64_t gap = events[opened->event].gapNs;
            for (size_t k = 0; k < l.size(); ++k)
            {
                const int64_t shift = static_cast<int64_t>(k) * gap;
                down[l[k]].push_back({opened->t + shift, FOREVER, outcomeOf[opened->event]});
            }
        }
    }
    return "";
}

void
FailureInjector::ScheduleDowns()
{
    const uint32_t nLinks = GetNLinks();
    for (uint32_t link = 0; link < nLinks; ++link)
    {
        std::vector<DownPeriod>& periods = m_down[link];
        if (periods.empty())
        {
            continue;
        }
        std::sort(periods.begin(), periods.end(), [](const DownPeriod& x, const DownPeriod& y) {
            return x.startNs < y.startNs;
        });
        // The link is down over the union of its periods (its own and its switches').
        int64_t start = periods[0].startNs;
        int64_t end = periods[0].endNs;
        auto fail = [this, link](int64_t s, int64_t e) {
            FailLink(link, NanoSeconds(s), e == FOREVER ? Time::Max() : NanoSeconds(e));
        };
        for (size_t p = 1; p < periods.size(); ++p)
        {
            if (periods[p].startNs <= end)
            {
                end = std::max(end, periods[p].endNs);
                continue;
            }
            fail(start, end);
            start = periods[p].startNs;
            end = periods[p].endNs;
        }
        fail(start, end);
        for (uint32_t side = 0; side < 2; ++side)
        {
            ReceiverAt(link, side)
                ->TraceConnectWithoutContext("Drop", MakeBoundCallback(&DropSink, this, link));
        }
    }
}

void
FailureInjector::ScheduleChanges(const std::vector<FailureSchedule::Event>& events,
                                 const std::vector<std::vector<uint32_t>>& links,
                                 const std::vector<size_t>& outcomeOf)
{
    for (size_t i = 0; i < events.size(); ++i)
    {
        const FailureSchedule::Event& e = events[i];
        for (size_t k = 0; k < links[i].size(); ++k)
        {
            const Time at = NanoSeconds(e.timeNs + static_cast<int64_t>(k) * e.gapNs);
            if (e.action == FailureSchedule::RATE)
            {
                DegradeLink(links[i][k], DataRate(e.rateBps), at);
            }
            else if (e.action == FailureSchedule::LOSS || e.action == FailureSchedule::BER)
            {
                // A model per link: each link loses packets independently.
                Ptr<RateErrorModel> model;
                if (e.value > 0)
                {
                    model = CreateObject<RateErrorModel>();
                    model->SetAttribute("ErrorRate", DoubleValue(e.value));
                    model->SetAttribute("ErrorUnit",
                                        EnumValue(e.action == FailureSchedule::BER
                                                      ? RateErrorModel::ERROR_UNIT_BIT
                                                      : RateErrorModel::ERROR_UNIT_PACKET));
                    m_models.push_back(model);
                }
                Simulator::Schedule(at,
                                    &FailureInjector::SetLoss,
                                    this,
                                    links[i][k],
                                    model,
                                    outcomeOf[i]);
            }
        }
    }
}

int64_t
FailureInjector::AssignStreams(int64_t stream)
{
    m_stream = stream;
    int64_t n = 0;
    for (Ptr<RateErrorModel> m : m_models)
    {
        n += m->AssignStreams(stream + n);
    }
    return n;
}

void
FailureInjector::SetLoss(uint32_t link, Ptr<RateErrorModel> model, size_t outcome)
{
    NS_LOG_FUNCTION(this << link << model << outcome);
    if (m_lossOutcome[link] == NONE)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            ReceiverAt(link, side)
                ->TraceConnectWithoutContext("Loss", MakeBoundCallback(&LossSink, this, link));
        }
    }
    m_lossOutcome[link] = outcome;
    for (uint32_t side = 0; side < 2; ++side)
    {
        ReceiverAt(link, side)->SetLossModel(model);
    }
}

void
FailureInjector::DropSink(FailureInjector* self, uint32_t link, Ptr<const Packet> /* packet */)
{
    int64_t now = Simulator::Now().GetNanoSeconds();
    for (const DownPeriod& p : self->m_down[link])
    {
        if (p.startNs <= now && now <= p.endNs)
        {
            Outcome& o = self->m_outcomes[p.outcome];
            ++o.drops;
            o.lastDrop = Simulator::Now();
        }
    }
}

void
FailureInjector::LossSink(FailureInjector* self, uint32_t link, Ptr<const Packet> /* packet */)
{
    size_t outcome = self->m_lossOutcome[link];
    if (outcome != NONE)
    {
        ++self->m_outcomes[outcome].lost;
    }
}

std::vector<uint32_t>
FailureInjector::GetEventLinks(size_t event) const
{
    return event < m_links.size() ? m_links[event] : std::vector<uint32_t>{};
}

std::vector<FailureInjector::Outcome>
FailureInjector::GetOutcomes() const
{
    std::vector<Outcome> sorted;
    for (size_t i = 0; i < m_outcomes.size(); ++i)
    {
        if (m_reported[i])
        {
            sorted.push_back(m_outcomes[i]);
        }
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const Outcome& x, const Outcome& y) {
        return x.line < y.line;
    });
    return sorted;
}

} // namespace ns3
