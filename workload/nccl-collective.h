/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NCCL_COLLECTIVE_H
#define REPS_NCCL_COLLECTIVE_H

#include "collective.h"

#include "ns3/nccl-schedule.h"

#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * An NCCL-style collective among the hosts (one GPU per host): the transfers NcclSchedule
 * computes, each a message on the queue pair of its connection (channel, source, destination,
 * queue pair; the flow's subflow is channel x QpsPerConnection + queue pair). A transfer is
 * posted once the transfers it waits for have arrived and, as NCCL posts a connection's
 * messages in program order, once the transfer before it on its queue pair is posted. Every
 * knob of NcclScheduleParameters is an attribute, with NCCL's default.
 */
class NcclCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// The collective (attribute Operation), as NcclOperation.
    enum Operation
    {
        ALL_REDUCE = 0,
        ALL_GATHER = 1,
        REDUCE_SCATTER = 2,
        BROADCAST = 3,
        ALL_TO_ALL = 4,
        REDUCE = 5,
        GATHER = 6,
        SCATTER = 7,
    };

    /// The algorithm (attribute Algorithm), as NcclAlgorithm.
    enum Algorithm
    {
        RING = 0,
        TREE = 1,
        HIERARCHICAL = 2,
    };

    NcclCollective();
    ~NcclCollective() override;

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

    /// \return the schedule's parameters, from the attributes
    NcclScheduleParameters GetParameters() const;

    /// \return "" when the attributes and hosts can be scheduled, else why not (parameter, range)
    std::string Check() const;

    /**
     * Tell the collective how the fabric's hosts form servers (ClosFabric::GetGpusPerServer()):
     * host h is GPU h % gpus of server h / gpus. The communicator's rank i is then GPU
     * host % gpus of server host / gpus for the i-th host of SetHosts(), so that the tree's
     * chains inside a server and the PXN hops run over the server's scale-up domain. Before
     * Start(); 1 (the default) makes every host a server of its own.
     * \param gpus GPUs per server, at least 1
     */
    void SetGpusPerServer(uint32_t gpus);

    /// \return the communicator of the hosts (their servers and GPU indices)
    NcclCommunicator GetCommunicator() const;

    /**
     * The queue pairs the collective uses, to prepare them before the run.
     * \return (source host, destination host, subflow) of each, in order of first use
     */
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> GetConnections() const;

    /// \return the transfers (after Start(); empty before)
    const std::vector<NcclTransfer>& GetTransfers() const;

  protected:
    void DoStart() override;
    void DoDispose() override;

  private:
    /// Builds m_transfers and the bookkeeping if not built yet.
    void Schedule() const;

    /// Posts the transfers at the head of queue pair \p q that no longer wait.
    void Post(uint32_t q);

    /// Transfer \p t arrived.
    void Arrived(uint32_t t);

    // The attributes set them at construction (defaults: NcclScheduleParameters').
    Operation m_operation{}; //!< Operation attribute.
    Algorithm m_algorithm{}; //!< Algorithm attribute.
    uint64_t m_bytes{};      //!< DataBytes attribute.
    uint32_t m_channels{};   //!< Channels attribute.
    uint64_t m_chunkBytes{}; //!< ChunkBytes attribute.
    uint32_t m_chunkSteps{}; //!< ChunkSteps attribute.
    uint32_t m_slots{};      //!< Slots attribute.
    uint32_t m_qps{};        //!< QpsPerConnection attribute.
    bool m_split{};          //!< SplitDataOnQps attribute.
    uint32_t m_root{};       //!< Root attribute.
    uint32_t m_window{};     //!< AllToAllWindow attribute.
    bool m_pxn{};            //!< Pxn attribute.
    uint32_t m_gpus{1};      //!< GPUs per server of the fabric (SetGpusPerServer()).

    mutable std::vector<NcclTransfer> m_transfers;       //!< The schedule.
    mutable std::vector<uint32_t> m_queueOf;             //!< Queue pair of each transfer.
    mutable std::vector<std::vector<uint32_t>> m_queues; //!< Transfers of each QP in order.
    mutable std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> m_connections; //!< QPs.
    mutable std::vector<std::vector<uint32_t>> m_dependants; //!< Who waits for each transfer.
    std::vector<uint32_t> m_waiting;                         //!< Arrivals each still waits for.
    std::vector<uint32_t> m_head;                            //!< Next unposted of each QP.
};

} // namespace ns3

#endif /* REPS_NCCL_COLLECTIVE_H */
