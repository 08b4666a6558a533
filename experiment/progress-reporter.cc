/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-reporter.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressReporter");

NS_OBJECT_ENSURE_REGISTERED(ProgressReporter);

TypeId
ProgressReporter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProgressReporter")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<ProgressReporter>()
            .AddAttribute("MinInterval",
                          "Smallest simulated time between two looks at the wall clock (also "
                          "the first one).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&ProgressReporter::m_minInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxInterval",
                          "Largest simulated time between two looks at the wall clock.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&ProgressReporter::m_maxInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("WallInterval",
                          "At most one line per this much wall-clock time.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&ProgressReporter::m_wallInterval),
                          MakeTimeChecker(MilliSeconds(1)));
    return tid;
}

ProgressReporter::ProgressReporter()
    : m_os(&std::cerr),
      m_lines(0),
      m_checks(0)
{
    NS_LOG_FUNCTION(this);
}

ProgressReporter::~ProgressReporter()
{
    NS_LOG_FUNCTION(this);
}

void
ProgressReporter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_completed = Callback<uint32_t>();
    m_total = Callback<uint32_t>();
    Object::DoDispose();
}

void
ProgressReporter::SetFlowCounters(Callback<uint32_t> completed, Callback<uint32_t> total)
{
    NS_LOG_FUNCTION(this);
    m_completed = completed;
    m_total = total;
}

void
ProgressReporter::SetStream(std::ostream* os)
{
    NS_LOG_FUNCTION(this << os);
    m_os = os;
}

void
ProgressReporter::SetLabel(const std::string& label)
{
    NS_LOG_FUNCTION(this << label);
    m_label = label;
}

void
ProgressReporter::Start()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_wallStart = std::chrono::steady_clock::now();
    m_lastCheck = m_wallStart;
    m_lastPrint = m_wallStart;
    m_period = std::min(m_minInterval, m_maxInterval);
    m_event = Simulator::Schedule(m_period, &ProgressReporter::Check, this);
}

void
ProgressReporter::Stop()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
}

uint32_t
ProgressReporter::GetLinesPrinted() const
{
    return m_lines;
}

uint32_t
ProgressReporter::GetChecks() const
{
    return m_checks;
}

void
ProgressReporter::Check()
{
    NS_LOG_FUNCTION(this);
    ++m_checks;
    auto now = std::chrono::steady_clock::now();
    double wallInterval = m_wallInterval.GetSeconds();
    double sinceCheck = std::chrono::duration<double>(now - m_lastCheck).count();
    m_lastCheck = now;
    // Aim at about ten checks per printed line.
    if (sinceCheck < wallInterval / 20 && m_period < m_maxInterval)
    {
        m_period = std::min(m_period * 2, m_maxInterval);
    }
    else if (sinceCheck > wallInterval / 5 && m_period > m_minInterval)
    {
        m_period = std::max(m_period / 2, m_minInterval);
    }
    if (std::chrono::duration<double>(now - m_lastPrint).count() >= wallInterval)
    {
        m_lastPrint = now;
        Print();
    }
    bool allDone =
        !m_completed.IsNull() && !m_total.IsNull() && m_total() > 0 && m_completed() >= m_total();
    if (!allDone && !Simulator::IsFinished())
    {
        m_event = Simulator::Schedule(m_period, &ProgressReporter::Check, this);
    }
}

void
ProgressReporter::Print()
{
    NS_LOG_FUNCTION(this);
    if (!m_os)
    {
        return;
    }
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    std::ostream& os = *m_os;
    std::ios_base::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    os << "progress" << (m_label.empty() ? "" : " [" + m_label + "]") << ": sim " << std::fixed
       << std::setprecision(1) << Simulator::Now().ToDouble(Time::US) << " us";
    if (!m_completed.IsNull() && !m_total.IsNull())
    {
        os << ", flows " << m_completed() << "/" << m_total();
    }
    os << ", wall " << std::setprecision(1) << wall << " s" << std::endl;
    os.flags(flags);
    os.precision(precision);
    ++m_lines;
}

} // namespace ns3
