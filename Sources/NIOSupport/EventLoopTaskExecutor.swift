import NIOCore

/// An event loop as a task executor, for `withTaskExecutorPreference` and
/// `addTask(executorPreference:)`: async code with this preference runs on the loop's thread,
/// so awaiting a future of a channel on the same loop resumes there, with no hand-off to and
/// from the cooperative pool (two futex wake-ups per await). The NIO in use offers the loop
/// only as a serial executor, hence this adapter.
package final class EventLoopTaskExecutor: TaskExecutor {
    package let loop: any EventLoop

    package init(_ loop: any EventLoop) {
        self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
