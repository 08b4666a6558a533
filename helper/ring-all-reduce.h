/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RING_ALL_REDUCE_H
#define REPS_RING_ALL_REDUCE_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Ring all-reduce over N hosts h[0..N-1]: the data of every host is cut into N chunks; in
 * 2(N-1) steps (N-1 of reduce-scatter, then N-1 of all-gather) host h[i] sends chunk
 * (i - k) mod N to its right neighbour h[i+1 mod N] at step k. Host h[i] starts step k only
 * when its input for it, the step k-1 chunk of its left neighbour h[i-1], has arrived; step 0
 * starts at once everywhere. Each host thus sends 2(N-1) chunks of about DataBytes / N bytes
 * (exactly DataBytes / N when N divides it; otherwise chunk c has one byte more for
 * c < DataBytes mod N).
 *
 * Flow ids: FirstFlowId + i * 2(N-1) + k for host position i and step k.
 */
class RingAllReduce : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllReduce();
    ~RingAllReduce() override;

    /// What happened to one step of one host.
    struct Step
    {
        uint32_t host{0};              //!< Position of the sender in the ring.
        uint32_t step{0};              //!< Step number, 0 to 2(N-1)-1.
        uint64_t bytes{0};             //!< Chunk size.
        Time inputArrived{Seconds(0)}; //!< When its input arrived (step 0: the start).
        Time start{Seconds(0)};        //!< When the send was launched.
        Time end{Seconds(0)};          //!< When the chunk arrived at the right neighbour.
        bool started{false};           //!< Launched.
        bool completed{false};         //!< Arrived.
    };

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

    /// \return the number of steps, 2(N-1).
    uint32_t GetSteps() const;

    /**
     * \param chunk a chunk index in [0, N).
     * \return its size in bytes.
     */
    uint64_t GetChunkBytes(uint32_t chunk) const;

    /// \return every step of every host, indexed [host position * 2(N-1) + step].
    const std::vector<Step>& GetStepRecords() const;

  protected:
    void DoStart() override;

  private:
    /**
     * Launch host \p i's next step if its input has arrived.
     * \param i host position.
     */
    void TryAdvance(uint32_t i);

    /**
     * The step \p k chunk of host \p i arrived at host i+1.
     * \param i host position.
     * \param k step.
     */
    void StepDone(uint32_t i, uint32_t k);

    uint64_t m_dataBytes;         //!< DataBytes attribute.
    std::vector<Step> m_steps;    //!< Per host and step.
    std::vector<uint32_t> m_next; //!< Next step to launch, per host position.
};

} // namespace ns3

#endif /* REPS_RING_ALL_REDUCE_H */
