/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PROGRESS_REPORTER_H
#define REPS_PROGRESS_REPORTER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <chrono>
#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup reps
 * Prints the progress of a long run to standard error, at most once per wall-clock interval
 * (one second by default): the simulated time reached, flows completed out of the total, and
 * the wall time since Start().
 *
 * It costs next to nothing: it looks at the wall clock only from one simulator event of its
 * own, whose period in simulated time adapts so that it runs about ten times per wall-clock
 * interval (doubling while the simulation races ahead, halving when it crawls). It stops by
 * itself when the flow counter says every flow has completed, or when its event is the only
 * one left, so it never keeps a finished simulation alive.
 */
class ProgressReporter : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ProgressReporter();
    ~ProgressReporter() override;

    /**
     * \param completed returns the number of flows completed so far.
     * \param total returns the number of flows in the run.
     */
    void SetFlowCounters(Callback<uint32_t> completed, Callback<uint32_t> total);

    /**
     * \param os where to print (standard error by default; must outlive the reporter).
     */
    void SetStream(std::ostream* os);

    /**
     * \param label printed at the start of every line (e.g. the scheme's name).
     */
    void SetLabel(const std::string& label);

    /// Start reporting (schedules the first check after MinInterval).
    void Start();

    /// Stop reporting.
    void Stop();

    /// \return the number of lines printed.
    uint32_t GetLinesPrinted() const;

    /// \return the number of checks made (simulator events used).
    uint32_t GetChecks() const;

  protected:
    void DoDispose() override;

  private:
    /// A periodic check.
    void Check();

    /// Print one line.
    void Print();

    Time m_minInterval;             //!< MinInterval attribute: smallest simulated period.
    Time m_maxInterval;             //!< MaxInterval attribute: largest simulated period.
    Time m_wallInterval;            //!< WallInterval attribute: at most one line per this much.
    Time m_period;                  //!< Current simulated period.
    Callback<uint32_t> m_completed; //!< Flows completed.
    Callback<uint32_t> m_total;     //!< Flows in total.
    std::ostream* m_os;             //!< Output.
    std::string m_label;            //!< Line prefix.
    EventId m_event;                //!< Next check.
    std::chrono::steady_clock::time_point m_wallStart; //!< Start() time.
    std::chrono::steady_clock::time_point m_lastCheck; //!< Previous check.
    std::chrono::steady_clock::time_point m_lastPrint; //!< Previous line.
    uint32_t m_lines;                                  //!< Lines printed.
    uint32_t m_checks;                                 //!< Checks made.
};

} // namespace ns3

#endif /* REPS_PROGRESS_REPORTER_H */
