/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-selector.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPathSelector");

NS_OBJECT_ENSURE_REGISTERED(MrcPathSelector);

namespace
{
constexpr uint32_t kMaxPathCount = 4096;  //!< Largest PathCount.
constexpr uint32_t kMaxThreshold = 65535; //!< Largest threshold of any kind.
constexpr uint32_t kRandomAttempts = 64;  //!< Random draws before a scan for a free EV.
constexpr uint32_t kRankNone = 5;         //!< Rank worse than any path's.

/**
 * The EVs of a plane in an entropy range: first, first + planes, ...
 * \param plane the plane.
 * \param planes the number of planes.
 * \param base the smallest EV.
 * \param space the number of EVs.
 * \param [out] first the smallest EV of the plane in the range.
 * \return how many EVs of the plane the range holds.
 */
uint32_t
PlaneRange(uint32_t plane, uint32_t planes, uint32_t base, uint32_t space, uint32_t& first)
{
    first = base + (plane + planes - base % planes) % planes;
    const uint32_t end = base + space;
    return first >= end ? 0 : (end - 1 - first) / planes + 1;
}
} // namespace

TypeId
MrcPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<MrcPathSelector>()
            .AddAttribute("PathCount",
                          "Number of EVs (paths) of a connection, drawn at random when it "
                          "starts and spread evenly over the planes (rounded up to a multiple of "
                          "the number of planes); 1 to 4096, and every plane needs that many "
                          "distinct EVs in the entropy space.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&MrcPathSelector::m_pathCount),
                          MakeUintegerChecker<uint32_t>(1, kMaxPathCount))
            .AddAttribute("EcnThreshold",
                          "Consecutive congestion signals (ECN-marked ACKs, NACKs of trimmed "
                          "packets) that move a GOOD path to SKIP (1 to 65535).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcPathSelector::m_ecnThreshold),
                          MakeUintegerChecker<uint32_t>(1, kMaxThreshold))
            .AddAttribute("LossThreshold",
                          "Packets declared lost on a path since its last unmarked ACK that "
                          "make it ASSUMED_BAD (1 to 65535).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcPathSelector::m_lossThreshold),
                          MakeUintegerChecker<uint32_t>(1, kMaxThreshold))
            .AddAttribute("ProbeFailThreshold",
                          "Consecutive unanswered probes that deny an ASSUMED_BAD path: its EV "
                          "is retired and replaced by a fresh one (1 to 65535).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MrcPathSelector::m_probeFailThreshold),
                          MakeUintegerChecker<uint32_t>(1, kMaxThreshold))
            .AddAttribute("SkipTime",
                          "How long a SKIP path is avoided (0: two base RTTs of the "
                          "connection; at most 1 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcPathSelector::m_skipTimeAttr),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("ProbeInterval",
                          "Period of the probe rounds while a path is ASSUMED_BAD, and the time "
                          "a probe has to be answered (0: the connection's RTO; at most 1 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcPathSelector::m_probeIntervalAttr),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("PlaneLossThreshold",
                          "Paths of one plane that become ASSUMED_BAD with no sign of life from "
                          "the plane in between (an ACK, marked or not, a trim NACK or a probe "
                          "reply) that make every path of the plane ASSUMED_BAD (fabrics of "
                          "more than one plane; 0: never, each path on its own; at most 65535).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MrcPathSelector::m_planeLossThreshold),
                          MakeUintegerChecker<uint32_t>(0, kMaxThreshold))
            .AddTraceSource("PathStateChanged",
                            "A path changed state: its EV, the old and the new state.",
                            MakeTraceSourceAccessor(&MrcPathSelector::m_stateChanged),
                            "ns3::MrcPathSelector::PathStateChangedTracedCallback")
            .AddTraceSource("PathReplaced",
                            "A denied EV was retired and a fresh EV took its slot: the old and "
                            "the new EV.",
                            MakeTraceSourceAccessor(&MrcPathSelector::m_pathReplaced),
                            "ns3::MrcPathSelector::PathReplacedTracedCallback")
            .AddTraceSource("PlaneSuspected",
                            "PlaneLossThreshold paths of a plane were lost in a row: every path "
                            "of the plane became ASSUMED_BAD. The plane.",
                            MakeTraceSourceAccessor(&MrcPathSelector::m_planeSuspected),
                            "ns3::MrcPathSelector::PlaneSuspectedTracedCallback");
    return tid;
}

MrcPathSelector::MrcPathSelector()
    : m_pathCount(128),
      m_ecnThreshold(1),
      m_lossThreshold(1),
      m_probeFailThreshold(3),
      m_skipTimeAttr(0),
      m_probeIntervalAttr(0),
      m_planeLossThreshold(4),
      m_cursor(0),
      m_lastLost(0),
      m_anyLoss(false),
      m_sentSinceRound(false),
      m_probesSent(0),
      m_probesAnswered(0),
      m_probesFailed(0),
      m_denials(0),
      m_planeSuspicions(0)
{
    NS_LOG_FUNCTION(this);
}

MrcPathSelector::~MrcPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
MrcPathSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_probeEvent.Cancel();
    m_paths.clear();
    m_slots.clear();
    PathSelector::DoDispose();
}

std::string
MrcPathSelector::GetName() const
{
    return "mrc";
}

std::string
MrcPathSelector::StateName(PathState state)
{
    switch (state)
    {
    case GOOD:
        return "good";
    case SKIP:
        return "skip";
    case ASSUMED_BAD:
        return "assumed-bad";
    case DENIED:
        return "denied";
    }
    return "unknown";
}

std::string
MrcPathSelector::CheckAttributes(uint32_t pathCount,
                                 uint32_t entropySpace,
                                 uint32_t entropyBase,
                                 uint32_t planes)
{
    std::ostringstream msg;
    planes = planes == 0 ? 1 : planes;
    if (pathCount < 1 || pathCount > kMaxPathCount)
    {
        msg << "MrcPathSelector: PathCount (" << pathCount << ") must be in [1, " << kMaxPathCount
            << "]";
        return msg.str();
    }
    const uint32_t perPlane = (pathCount + planes - 1) / planes;
    for (uint32_t plane = 0; plane < planes; ++plane)
    {
        uint32_t first = 0;
        const uint32_t available = PlaneRange(plane, planes, entropyBase, entropySpace, first);
        if (perPlane > available)
        {
            msg << "MrcPathSelector: PathCount (" << pathCount << ") needs " << perPlane
                << " distinct EVs on each of the " << planes << " plane(s), but EntropySpace ("
                << entropySpace << ") holds only " << available << " EVs of plane " << plane
                << "; allowed: PathCount <= " << std::min(available * planes, kMaxPathCount)
                << " (the EVs must be distinct)";
            return msg.str();
        }
    }
    return "";
}

std::string
MrcPathSelector::DoValidate(const PathSelectorContext& context) const
{
    return CheckAttributes(m_pathCount, GetEntropySpace(), GetEntropyBase(), context.planes);
}

void
MrcPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_probeEvent.Cancel();
    const uint32_t planes = GetPlanes();
    m_paths.clear();
    m_slots.clear();
    m_retired.clear();
    m_cursor = 0;
    m_lastLost = 0;
    m_anyLoss = false;
    m_sentSinceRound = false;
    m_probesSent = 0;
    m_probesAnswered = 0;
    m_probesFailed = 0;
    m_denials = 0;
    m_planeSuspicions = 0;
    m_planeLosses.assign(std::max<uint32_t>(planes, 1), 0);
    m_entered.fill(0);
    m_sentIn.fill(0);
    // Plane-interleaved order: consecutive packets of the round robin leave on consecutive
    // planes, so every plane carries the same share.
    const uint32_t perPlane = (m_pathCount + planes - 1) / planes;
    for (uint32_t i = 0; i < perPlane; ++i)
    {
        for (uint32_t plane = 0; plane < planes; ++plane)
        {
            Path path;
            bool found = DrawEntropy(plane, path.ev);
            NS_ASSERT_MSG(found, "CheckAttributes() guarantees enough EVs per plane");
            m_slots[path.ev] = m_paths.size();
            m_paths.push_back(path);
        }
    }
}

bool
MrcPathSelector::DrawEntropy(uint32_t plane, uint16_t& ev)
{
    uint32_t first = 0;
    const uint32_t count =
        PlaneRange(plane, GetPlanes(), GetEntropyBase(), GetEntropySpace(), first);
    if (count == 0)
    {
        return false;
    }
    auto isFree = [this](uint32_t e) {
        return m_slots.find(static_cast<uint16_t>(e)) == m_slots.end() &&
               m_retired.find(static_cast<uint16_t>(e)) == m_retired.end();
    };
    for (uint32_t attempt = 0; attempt < kRandomAttempts; ++attempt)
    {
        const uint32_t e = first + RandomInteger(count - 1) * GetPlanes();
        if (isFree(e))
        {
            ev = static_cast<uint16_t>(e);
            return true;
        }
    }
    // A nearly exhausted plane: scan from a random place.
    const uint32_t start = RandomInteger(count - 1);
    for (uint32_t j = 0; j < count; ++j)
    {
        const uint32_t e = first + ((start + j) % count) * GetPlanes();
        if (isFree(e))
        {
            ev = static_cast<uint16_t>(e);
            return true;
        }
    }
    return false;
}

Time
MrcPathSelector::GetSkipTime() const
{
    return m_skipTimeAttr.IsStrictlyPositive() ? m_skipTimeAttr : 2 * GetContext().baseRtt;
}

Time
MrcPathSelector::GetProbeInterval() const
{
    if (m_probeIntervalAttr.IsStrictlyPositive())
    {
        return m_probeIntervalAttr;
    }
    return GetContext().rto.IsStrictlyPositive() ? GetContext().rto : 5 * GetContext().baseRtt;
}

void
MrcPathSelector::SetState(Path& path, PathState to)
{
    const PathState from = path.state;
    if (from == to)
    {
        return;
    }
    NS_LOG_LOGIC("ev " << path.ev << ": " << StateName(from) << " -> " << StateName(to));
    path.state = to;
    switch (to)
    {
    case GOOD:
        path.marks = 0;
        path.losses = 0;
        path.probeFailures = 0;
        path.probeOutstanding = false;
        break;
    case SKIP:
        path.marks = 0;
        path.skipUntil = Simulator::Now() + GetSkipTime();
        break;
    case ASSUMED_BAD:
        path.marks = 0;
        path.probeFailures = 0;
        path.probeOutstanding = false;
        break;
    case DENIED:
        break;
    }
    ++m_entered[to];
    m_stateChanged(path.ev, from, to);
}

uint32_t
MrcPathSelector::Rank(Path& path, bool retransmission)
{
    if (path.state == SKIP && Simulator::Now() >= path.skipUntil)
    {
        SetState(path, GOOD); // SkipTime is over: checked when the round robin gets here
    }
    const bool lostHere = retransmission && m_anyLoss && path.ev == m_lastLost;
    switch (path.state)
    {
    case GOOD:
        return (retransmission && path.losses > 0) || lostHere ? 1 : 0;
    case SKIP:
        return 2;
    case ASSUMED_BAD:
        return lostHere ? 4 : 3;
    case DENIED:
        break;
    }
    return kRankNone;
}

uint16_t
MrcPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = ROUND_ROBIN;
    m_sentSinceRound = true;
    const std::size_t n = m_paths.size();
    std::size_t best = 0;
    uint32_t bestRank = kRankNone;
    for (std::size_t k = 0; k < n; ++k)
    {
        const std::size_t i = (m_cursor + k) % n;
        const uint32_t rank = Rank(m_paths[i], retransmission);
        if (rank < bestRank)
        {
            best = i;
            bestRank = rank;
            if (rank == 0)
            {
                break;
            }
        }
    }
    m_cursor = (best + 1) % n;
    const Path& path = m_paths[best];
    ++m_sentIn[path.state];
    ScheduleProbing();
    return path.ev;
}

void
MrcPathSelector::DoFeedback(const Feedback& feedback)
{
    const uint16_t ev = feedback.ev;
    if (feedback.kind == Feedback::LOST)
    {
        m_lastLost = ev;
        m_anyLoss = true;
    }
    auto it = m_slots.find(ev);
    if (it == m_slots.end())
    {
        return; // a retired EV, or one from before AssignStreams()
    }
    Path& path = m_paths[it->second];
    if (feedback.kind != Feedback::LOST)
    {
        // An ACK, marked or not, or a NACK of a trimmed header: the plane delivers.
        m_planeLosses[PlaneOfEntropy(ev, GetPlanes())] = 0;
    }
    switch (feedback.kind)
    {
    case Feedback::GOOD:
        path.marks = 0;
        path.losses = 0;
        break;
    case Feedback::ECN:
    case Feedback::NACK:
        if (path.state == GOOD && ++path.marks >= m_ecnThreshold)
        {
            SetState(path, SKIP);
        }
        break;
    case Feedback::LOST:
        if (path.state != ASSUMED_BAD && ++path.losses >= m_lossThreshold)
        {
            AssumeBad(path);
            PlaneLoss(ev);
            ScheduleProbing();
        }
        break;
    }
}

void
MrcPathSelector::AssumeBad(Path& path)
{
    SetState(path, ASSUMED_BAD);
    // The first probe leaves at once; the rounds judge it one ProbeInterval later.
    Probe(path);
}

void
MrcPathSelector::Probe(Path& path)
{
    if (SendProbe(path.ev))
    {
        ++m_probesSent;
        path.probeOutstanding = true;
        path.probeSentAt = Simulator::Now();
    }
}

void
MrcPathSelector::PlaneLoss(uint16_t ev)
{
    const uint32_t planes = GetPlanes();
    if (m_planeLossThreshold == 0 || planes < 2)
    {
        return;
    }
    const uint32_t plane = PlaneOfEntropy(ev, planes);
    if (++m_planeLosses[plane] < m_planeLossThreshold)
    {
        return;
    }
    m_planeLosses[plane] = 0;
    ++m_planeSuspicions;
    NS_LOG_LOGIC("plane " << plane << " suspected");
    for (Path& path : m_paths)
    {
        if ((path.state == GOOD || path.state == SKIP) && PlaneOfEntropy(path.ev, planes) == plane)
        {
            AssumeBad(path);
        }
    }
    m_planeSuspected(plane);
}

void
MrcPathSelector::ScheduleProbing()
{
    if (!m_probeEvent.IsExpired() || !m_sentSinceRound)
    {
        return;
    }
    for (const Path& path : m_paths)
    {
        if (path.state == ASSUMED_BAD)
        {
            m_sentSinceRound = false;
            m_probeEvent =
                Simulator::Schedule(GetProbeInterval(), &MrcPathSelector::ProbeRound, this);
            return;
        }
    }
}

void
MrcPathSelector::ProbeRound()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    const Time interval = GetProbeInterval();
    for (std::size_t i = 0; i < m_paths.size(); ++i)
    {
        if (m_paths[i].state != ASSUMED_BAD)
        {
            continue;
        }
        if (m_paths[i].probeOutstanding)
        {
            if (now - m_paths[i].probeSentAt < interval)
            {
                continue; // sent less than an interval ago: not judged yet
            }
            m_paths[i].probeOutstanding = false;
            ++m_probesFailed;
            if (++m_paths[i].probeFailures >= m_probeFailThreshold)
            {
                Deny(i);
            }
        }
        Probe(m_paths[i]);
    }
    // The next round only while the connection sends: an idle connection leaves no events
    // behind, and its next packet starts the rounds again.
    ScheduleProbing();
}

void
MrcPathSelector::Deny(std::size_t slot)
{
    Path& path = m_paths[slot];
    const uint16_t denied = path.ev;
    SetState(path, DENIED);
    ++m_denials;
    m_retired.insert(denied);
    uint16_t fresh = 0;
    if (!DrawEntropy(PlaneOfEntropy(denied, GetPlanes()), fresh))
    {
        // Every EV of the plane is in use or retired: keep this one and go on probing it.
        m_retired.erase(denied);
        SetState(path, ASSUMED_BAD);
        return;
    }
    m_slots.erase(denied);
    m_slots[fresh] = slot;
    path = Path();
    path.ev = fresh;
    path.state = ASSUMED_BAD;
    m_pathReplaced(denied, fresh);
}

void
MrcPathSelector::DoProbeReply(uint16_t ev, Time rtt)
{
    NS_LOG_FUNCTION(this << ev << rtt);
    auto it = m_slots.find(ev);
    if (it == m_slots.end())
    {
        return; // the EV was retired meanwhile
    }
    ++m_probesAnswered;
    m_planeLosses[PlaneOfEntropy(ev, GetPlanes())] = 0;
    Path& path = m_paths[it->second];
    path.probeOutstanding = false;
    if (path.state == ASSUMED_BAD)
    {
        SetState(path, GOOD);
    }
}

const std::vector<MrcPathSelector::Path>&
MrcPathSelector::GetPaths() const
{
    return m_paths;
}

bool
MrcPathSelector::GetState(uint16_t ev, PathState& state) const
{
    auto it = m_slots.find(ev);
    if (it != m_slots.end())
    {
        state = m_paths[it->second].state;
        return true;
    }
    if (m_retired.find(ev) != m_retired.end())
    {
        state = DENIED;
        return true;
    }
    return false;
}

uint32_t
MrcPathSelector::CountPaths(PathState state) const
{
    if (state == DENIED)
    {
        return static_cast<uint32_t>(m_retired.size());
    }
    uint32_t n = 0;
    for (const Path& path : m_paths)
    {
        n += path.state == state;
    }
    return n;
}

void
MrcPathSelector::DoGetCounters(Counters& counters) const
{
    for (uint32_t s = 0; s < N_STATES; ++s)
    {
        const std::string name = StateName(static_cast<PathState>(s));
        counters["paths." + name] = CountPaths(static_cast<PathState>(s));
        counters["entered." + name] = m_entered[s];
        if (s != DENIED)
        {
            counters["sent." + name] = m_sentIn[s];
        }
    }
    counters["probes.sent"] = m_probesSent;
    counters["probes.answered"] = m_probesAnswered;
    counters["probes.failed"] = m_probesFailed;
    counters["denials"] = m_denials;
    counters["plane-suspicions"] = m_planeSuspicions;
}

} // namespace ns3
