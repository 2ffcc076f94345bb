//! The reader-writer lock behind the world's lazily refreshed broad phase: std's with the
//! `std` feature; without it, `spin`'s, which busy-waits (there are no OS threads to park on
//! such targets, and the lock is only ever contended by queries racing one refresh).

#[cfg(feature = "std")]
mod imp {
    use std::sync::PoisonError;
    pub(crate) use std::sync::RwLockReadGuard as ReadGuard;

    #[derive(Debug)]
    pub(crate) struct RwLock<T>(std::sync::RwLock<T>);

    impl<T> RwLock<T> {
        pub(crate) const fn new(value: T) -> RwLock<T> {
            RwLock(std::sync::RwLock::new(value))
        }

        /// A panic while the lock was held leaves the value as it got: every user of this
        /// lock keeps it consistent between steps, so a poisoned lock is taken as it is.
        pub(crate) fn read(&self) -> ReadGuard<'_, T> {
            self.0.read().unwrap_or_else(PoisonError::into_inner)
        }

        pub(crate) fn write(&self) -> std::sync::RwLockWriteGuard<'_, T> {
            self.0.write().unwrap_or_else(PoisonError::into_inner)
        }
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub(crate) use spin::RwLockReadGuard as ReadGuard;

    #[derive(Debug)]
    pub(crate) struct RwLock<T>(spin::RwLock<T>);

    impl<T> RwLock<T> {
        pub(crate) const fn new(value: T) -> RwLock<T> {
            RwLock(spin::RwLock::new(value))
        }

        pub(crate) fn read(&self) -> ReadGuard<'_, T> {
            self.0.read()
        }

        pub(crate) fn write(&self) -> spin::RwLockWriteGuard<'_, T> {
            self.0.write()
        }
    }
}

pub(crate) use imp::{ReadGuard, RwLock};
