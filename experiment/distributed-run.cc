/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "distributed-run.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DistributedRun");

namespace
{

/// First word of a packed part ("REPS" in ASCII), against mixing up buffers.
constexpr uint64_t PACK_MAGIC = 0x52455053;

bool g_enabled = false; //!< Whether Enable() started the MPI engine.

/// \param v a double holding a count. \return the count.
uint64_t
Count(double v)
{
    return v > 0 ? static_cast<uint64_t>(v + 0.5) : 0;
}

#ifdef NS3_MPI
/// Finish MPI at exit, so that every way out of the program (errors included) finalizes it.
void
DisableAtExit()
{
    DistributedRun::Disable();
}
#endif

} // namespace

bool
DistributedRun::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

uint32_t
DistributedRun::GetLauncherSize()
{
    // Open MPI's mpirun, then the PMI launchers (MPICH, Slurm).
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    {
        const char* value = std::getenv(name);
        if (value != nullptr)
        {
            char* end = nullptr;
            unsigned long n = std::strtoul(value, &end, 10);
            if (end != value && *end == '\0' && n >= 1 && n <= UINT32_MAX)
            {
                return static_cast<uint32_t>(n);
            }
        }
    }
    return 1;
}

std::string
DistributedRun::Enable(uint32_t systems)
{
    NS_LOG_FUNCTION(systems);
    if (g_enabled)
    {
        return systems == GetSize() ? ""
                                    : "the MPI engine already runs " + std::to_string(GetSize()) +
                                          " ranks, not " + std::to_string(systems);
    }
    const uint32_t launched = GetLauncherSize();
    if (systems == 1)
    {
        if (launched > 1)
        {
            return "1, but the MPI launcher started " + std::to_string(launched) +
                   " processes (each would run the whole fabric and write the same files); "
                   "give --systems=" +
                   std::to_string(launched);
        }
        return "";
    }
#ifndef NS3_MPI
    return std::to_string(systems) +
           " needs ns-3's MPI engine, which this build does not have: build the module in an "
           "ns-3 tree configured with --enable-mpi (Debian's libns3-dev has no MPI module); "
           "allowed here: 1";
#else
    if (launched != systems)
    {
        return std::to_string(systems) + " ranks, but the MPI launcher started " +
               std::to_string(launched) + " (run it as mpirun -np " + std::to_string(systems) + ")";
    }
    // The engine is chosen when the simulator is created: drop one made before (none holds
    // events at this point).
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DistributedSimulatorImpl"));
    // MPI is initialized here, not by ns-3, so that the engine can be started again for the
    // next run of the process (ns-3 frees its receive buffers when a simulation is destroyed).
    MPI_Init(nullptr, nullptr);
    MpiInterface::Enable(MPI_COMM_WORLD);
    g_enabled = true;
    std::atexit(&DisableAtExit);
    if (MpiInterface::GetSize() != systems)
    {
        return std::to_string(systems) + " ranks, but MPI has " +
               std::to_string(MpiInterface::GetSize());
    }
    return "";
#endif
}

bool
DistributedRun::IsEnabled()
{
    return g_enabled;
}

uint32_t
DistributedRun::GetRank()
{
#ifdef NS3_MPI
    return g_enabled ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
DistributedRun::GetSize()
{
#ifdef NS3_MPI
    return g_enabled ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

void
DistributedRun::Disable()
{
#ifdef NS3_MPI
    if (g_enabled)
    {
        g_enabled = false;
        MpiInterface::Disable();
        MPI_Finalize();
    }
#endif
}

void
DistributedRun::Restart()
{
#ifdef NS3_MPI
    if (g_enabled)
    {
        // Simulator::Destroy() freed the engine's buffers: a new interface for the next run.
        MPI_Barrier(MPI_COMM_WORLD);
        MpiInterface::Disable();
        MpiInterface::Enable(MPI_COMM_WORLD);
    }
#endif
}

std::vector<std::vector<uint64_t>>
DistributedRun::GatherToRoot(const std::vector<uint64_t>& part)
{
    NS_LOG_FUNCTION(part.size());
    std::vector<std::vector<uint64_t>> parts;
#ifdef NS3_MPI
    if (g_enabled)
    {
        MPI_Comm comm = MpiInterface::GetCommunicator();
        const int size = static_cast<int>(GetSize());
        const bool root = GetRank() == 0;
        int count = static_cast<int>(part.size());
        std::vector<int> counts(root ? size : 0);
        MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
        std::vector<int> offsets(counts.size(), 0);
        size_t total = 0;
        for (size_t i = 0; i < counts.size(); ++i)
        {
            offsets[i] = static_cast<int>(total);
            total += static_cast<size_t>(counts[i]);
        }
        std::vector<uint64_t> all(total);
        MPI_Gatherv(part.data(),
                    count,
                    MPI_UINT64_T,
                    all.data(),
                    counts.data(),
                    offsets.data(),
                    MPI_UINT64_T,
                    0,
                    comm);
        for (size_t i = 0; i < counts.size(); ++i)
        {
            parts.emplace_back(all.begin() + offsets[i], all.begin() + offsets[i] + counts[i]);
        }
        return parts;
    }
#endif
    parts.push_back(part);
    return parts;
}

const std::vector<std::string>&
DistributedRun::SummedExtras()
{
    static const std::vector<std::string> names =
        {"timeouts", "nacks", "nacks_last_hop", "ecn_acks", "link_packets", "simulator_events"};
    return names;
}

std::vector<uint64_t>
DistributedRun::Pack(const RunResult& r)
{
    std::vector<uint64_t> p = {PACK_MAGIC,
                               r.linkBytes.size(),
                               r.maxQueueBytesPerTier.size(),
                               r.packets,
                               r.retransmissions,
                               r.drops,
                               r.trims,
                               r.ecnMarks,
                               r.freezes,
                               r.maxQueueBytes};
    for (const auto& [tier, bytes] : r.maxQueueBytesPerTier)
    {
        p.push_back(bytes);
    }
    for (const LinkLoad& l : r.linkBytes)
    {
        p.push_back(l.bytes);
    }
    for (const std::string& name : SummedExtras())
    {
        auto it = r.extra.find(name);
        p.push_back(it == r.extra.end() ? 0 : Count(it->second));
    }
    p.push_back(r.planes.size());
    for (const PlaneLoad& plane : r.planes)
    {
        p.push_back(plane.packets);
        p.push_back(plane.bytes);
    }
    p.push_back(static_cast<uint64_t>(r.simTime.GetTimeStep()));
    p.push_back(static_cast<uint64_t>(std::llround(r.wallSeconds * 1e9)));
    std::vector<uint64_t> done;
    for (const FlowStats::Record& rec : r.flows.GetRecords())
    {
        if (rec.completed)
        {
            done.push_back(rec.flow.id);
            done.push_back(static_cast<uint64_t>(rec.finished.GetTimeStep()));
        }
    }
    p.push_back(done.size() / 2);
    p.insert(p.end(), done.begin(), done.end());
    return p;
}

void
DistributedRun::ClearCounters(RunResult& r)
{
    r.packets = r.retransmissions = r.drops = r.trims = r.ecnMarks = r.freezes = 0;
    r.maxQueueBytes = 0;
    for (auto& [tier, bytes] : r.maxQueueBytesPerTier)
    {
        bytes = 0;
    }
    for (LinkLoad& l : r.linkBytes)
    {
        l.bytes = 0;
    }
    for (PlaneLoad& plane : r.planes)
    {
        plane.packets = plane.bytes = 0;
        plane.share = 0;
    }
    for (const std::string& name : SummedExtras())
    {
        r.extra[name] = 0;
    }
    r.simTime = Time(0);
    r.wallSeconds = 0;
}

void
DistributedRun::MergePlanes(RunResult& into, const std::vector<uint64_t>& part, size_t at)
{
    uint64_t total = 0;
    for (PlaneLoad& plane : into.planes)
    {
        plane.packets += part[at++];
        plane.bytes += part[at++];
        total += plane.bytes;
    }
    for (PlaneLoad& plane : into.planes)
    {
        plane.share = total ? static_cast<double>(plane.bytes) / static_cast<double>(total) : 0.0;
    }
}

std::string
DistributedRun::Merge(RunResult& into,
                      const std::vector<uint64_t>& part,
                      std::map<uint32_t, Time>& completions)
{
    const size_t fixed = 10;
    if (part.size() < fixed || part[0] != PACK_MAGIC)
    {
        return "not a packed result";
    }
    if (part[1] != into.linkBytes.size() || part[2] != into.maxQueueBytesPerTier.size())
    {
        return "a rank reports " + std::to_string(part[1]) + " links and " +
               std::to_string(part[2]) + " switch tiers, not " +
               std::to_string(into.linkBytes.size()) + " and " +
               std::to_string(into.maxQueueBytesPerTier.size());
    }
    const size_t planesAt = fixed + part[1] + part[2] + SummedExtras().size();
    if (part.size() <= planesAt || part[planesAt] != into.planes.size())
    {
        return "a rank reports another number of planes";
    }
    const size_t needed = planesAt + 1 + 2 * into.planes.size() + 3;
    if (part.size() < needed || part.size() != needed + 2 * part[needed - 1])
    {
        return "a packed result of the wrong length";
    }
    size_t i = 3;
    for (uint64_t* counter :
         {&into.packets, &into.retransmissions, &into.drops, &into.trims, &into.ecnMarks})
    {
        *counter += part[i++];
    }
    into.freezes += part[i++];
    into.maxQueueBytes = std::max(into.maxQueueBytes, part[i++]);
    for (auto& [tier, bytes] : into.maxQueueBytesPerTier)
    {
        bytes = std::max(bytes, part[i++]);
    }
    for (LinkLoad& l : into.linkBytes)
    {
        l.bytes += part[i++];
    }
    for (const std::string& name : SummedExtras())
    {
        into.extra[name] += static_cast<double>(part[i++]);
    }
    MergePlanes(into, part, ++i); // past the count, checked above
    i += 2 * into.planes.size();
    into.simTime = std::max(into.simTime, TimeStep(part[i++]));
    into.wallSeconds = std::max(into.wallSeconds, static_cast<double>(part[i++]) * 1e-9);
    const uint64_t done = part[i++];
    for (uint64_t k = 0; k < done; ++k, i += 2)
    {
        auto id = static_cast<uint32_t>(part[i]);
        if (!completions.emplace(id, TimeStep(part[i + 1])).second)
        {
            return "flow " + std::to_string(id) + " completed on two ranks";
        }
    }
    return "";
}

} // namespace ns3
