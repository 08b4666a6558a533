/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_STEPPED_COLLECTIVE_H
#define REPS_STEPPED_COLLECTIVE_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Base of the collectives in which, at every step, every host sends one chunk to one peer and
 * starts its next step only when the chunk it needs for it has arrived (ring all-gather, ring
 * reduce-scatter, halving-doubling all-reduce). A subclass says how many steps there are, to
 * whom host position i sends at step k, how many bytes, and whose step k-1 chunk is the input
 * of host i's step k. Step 0 starts at once everywhere.
 *
 * DataBytes is cut into N chunks (N the number of hosts): chunk c has DataBytes / N bytes, one
 * more for c < DataBytes mod N. Flow ids: FirstFlowId + i * steps + k for host position i and
 * step k.
 */
class SteppedCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SteppedCollective();
    ~SteppedCollective() override;

    /// What happened to one step of one host.
    struct Step
    {
        uint32_t host{0};              //!< Position of the sender among the hosts.
        uint32_t peer{0};              //!< Position of the receiver.
        uint32_t step{0};              //!< Step number.
        uint64_t bytes{0};             //!< Bytes sent.
        Time inputArrived{Seconds(0)}; //!< When its input arrived (step 0: the start).
        Time start{Seconds(0)};        //!< When the send was launched.
        Time end{Seconds(0)};          //!< When it arrived at the peer.
        bool started{false};           //!< Launched.
        bool completed{false};         //!< Arrived.
    };

    uint32_t GetFlowCount() const override;

    /// \return the number of steps of every host.
    virtual uint32_t GetSteps() const = 0;

    /**
     * \param chunk a chunk index in [0, N).
     * \return its size in bytes.
     */
    uint64_t GetChunkBytes(uint32_t chunk) const;

    /**
     * \param first first chunk index.
     * \param count number of consecutive chunks.
     * \return their total size in bytes.
     */
    uint64_t GetChunkRangeBytes(uint32_t first, uint32_t count) const;

    /// \return every step of every host, indexed [host position * steps + step].
    const std::vector<Step>& GetStepRecords() const;

  protected:
    void DoStart() override;

    /**
     * Check the number of hosts and DataBytes; abort with a message naming the parameter.
     * The base requires DataBytes >= N.
     */
    virtual void CheckSize() const;

    /**
     * \param i host position.
     * \param k step.
     * \return the position of the host that receives host i's step k chunk.
     */
    virtual uint32_t GetPeer(uint32_t i, uint32_t k) const = 0;

    /**
     * \param i host position.
     * \param k step.
     * \return bytes host i sends at step k.
     */
    virtual uint64_t GetStepBytes(uint32_t i, uint32_t k) const = 0;

    /**
     * \param i host position.
     * \param k step, at least 1.
     * \return the position of the host whose step k-1 chunk, sent to i, is the input of host
     * i's step k.
     */
    virtual uint32_t GetInputSource(uint32_t i, uint32_t k) const = 0;

    /// \return the DataBytes attribute.
    uint64_t GetDataBytes() const;

  private:
    /**
     * Launch host \p i's next steps whose input has arrived.
     * \param i host position.
     */
    void TryAdvance(uint32_t i);

    /**
     * The step \p k chunk of host \p i arrived at its peer.
     * \param i host position.
     * \param k step.
     */
    void StepDone(uint32_t i, uint32_t k);

    uint64_t m_dataBytes;         //!< DataBytes attribute.
    std::vector<Step> m_steps;    //!< Per host and step.
    std::vector<uint32_t> m_next; //!< Next step to launch, per host position.
};

} // namespace ns3

#endif /* REPS_STEPPED_COLLECTIVE_H */
