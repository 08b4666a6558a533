/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: PfcHeader::Deserialize (IEEE 802.1Qbb PAUSE frames) on arbitrary bytes,
 * through Packet::RemoveHeader as a PFC port receives them.
 *
 * Checked for every input: Deserialize reads at most the bytes there are (Buffer::Iterator's
 * bounds assertions are compiled in) and consumes either nothing (fewer than 64 bytes, then the
 * frame is not valid and the packet is unchanged) or exactly 64 bytes; a frame accepted as valid
 * serializes back to the same first 34 bytes (destination, source, EtherType, opcode,
 * class-enable vector, quanta; the padding and the FCS are sent as zeros) and reads back equal.
 *
 * reps-fuzz-sources: model/pfc-header.cc
 */

#include "pfc-header.h"

#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Stop the run with a message: libFuzzer reports the input as a crash.
 * \param what the broken property.
 */
[[noreturn]] void
Fail(const char* what)
{
    std::fprintf(stderr, "pfc-header-fuzz: %s\n", what);
    std::abort();
}

/// Bytes of a frame that a valid PfcHeader reproduces.
constexpr size_t kMeaningful = 34;

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<Packet> p = Create<Packet>(data, static_cast<uint32_t>(size));
    PfcHeader h;
    uint32_t read = p->RemoveHeader(h);
    if (size < PfcHeader::SIZE)
    {
        if (read != 0 || h.IsValid() || p->GetSize() != size)
        {
            Fail("a truncated frame was read");
        }
        return 0;
    }
    if (read != PfcHeader::SIZE || p->GetSize() != size - PfcHeader::SIZE)
    {
        Fail("a frame of 64 bytes or more was not read whole");
    }
    if (!h.IsValid())
    {
        return 0;
    }
    Ptr<Packet> q = Create<Packet>();
    q->AddHeader(h);
    std::vector<uint8_t> out(q->GetSize());
    q->CopyData(out.data(), out.size());
    if (out.size() != PfcHeader::SIZE || std::memcmp(out.data(), data, kMeaningful) != 0)
    {
        Fail("a valid frame does not serialize back to its bytes");
    }
    PfcHeader back;
    q->RemoveHeader(back);
    if (!back.IsValid() || back.GetClassEnableVector() != h.GetClassEnableVector() ||
        back.GetSource() != h.GetSource())
    {
        Fail("a valid frame does not read back equal");
    }
    for (uint8_t prio = 0; prio < PfcHeader::N_PRIORITIES; ++prio)
    {
        if (back.GetQuanta(prio) != h.GetQuanta(prio))
        {
            Fail("quanta differ after a round trip");
        }
    }
    return 0;
}
