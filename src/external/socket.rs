//! Lines over a loopback TCP connection, read and written with deadlines: how the host talks to
//! a program that speaks its protocol over a socket rather than its stdin and stdout (an ACPC
//! poker agent connects to its dealer). The program itself, when the host starts it, is a
//! [`Process`](super::process::Process) like any other; this file knows no protocol.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::process::{read_spinning, wait, write_all, LineError, LineReader};

/// A port on 127.0.0.1 that programs connect to.
pub struct Listener {
    listener: TcpListener,
    port: u16,
}

/// How often [`Listener::accept`] looks whether the program it waits for has given up.
const ACCEPT_TICK: Duration = Duration::from_millis(20);

impl Listener {
    /// Listens on 127.0.0.1:`port` (0: a free port the system picks).
    pub fn bind(port: u16) -> io::Result<Listener> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        Ok(Listener { listener, port })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The next connection, before `deadline`. `gone` is asked while waiting: a reason when the
    /// program that should connect has ended (then waiting longer is pointless).
    pub fn accept(&self, deadline: Instant, mut gone: impl FnMut() -> Option<String>) -> Result<Socket, Accept> {
        loop {
            match self.listener.accept() {
                Ok((stream, _)) => return Socket::new(stream).map_err(|_| Accept::Failed),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return Err(Accept::Failed),
            }
            if let Some(reason) = gone() {
                return Err(Accept::Gone(reason));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Accept::Timeout);
            }
            // Readable means a connection is waiting; either way, look again after the tick.
            let _ = wait(self.listener.as_raw_fd(), libc::POLLIN, Some(deadline.min(now + ACCEPT_TICK)));
        }
    }
}

/// Why no connection came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accept {
    Timeout,
    /// The program ended first, as the reason says.
    Gone(String),
    /// The system refused the connection (out of descriptors, say).
    Failed,
}

/// One connection: lines in and out with deadlines, as a [`Process`](super::process::Process)'s
/// pipes are.
pub struct Socket {
    stream: TcpStream,
    reader: LineReader,
}

impl Socket {
    fn new(stream: TcpStream) -> io::Result<Socket> {
        stream.set_nonblocking(true)?;
        // A line is a whole message: send it now, not when more would fill a segment.
        stream.set_nodelay(true)?;
        Ok(Socket { stream, reader: LineReader::new() })
    }

    /// Writes `bytes` (whole lines) before `deadline`.
    pub fn send(&mut self, bytes: &[u8], deadline: Option<Instant>) -> Result<(), LineError> {
        write_all(&mut self.stream, bytes, deadline)
    }

    /// The next line (without its line end), before `deadline`.
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Result<&[u8], LineError> {
        self.reader.read_line(&mut self.stream, deadline)
    }

    /// What the program wrote that nobody asked for, up to its first newline (see
    /// [`Process::unasked`](super::process::Process::unasked)).
    pub fn unasked(&mut self) -> Option<&[u8]> {
        self.reader.unasked(&mut self.stream)
    }

    /// Ends the connection both ways: the program reads end of file.
    pub fn close(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// The two ends of a connection to a server (`connect`), read and written as the host reads and
/// writes a bot's pipes: a read polls for a moment before it sleeps, so that the server's next
/// line does not wait for an idle core to wake up (on a 2-core machine that wake-up cost an ACPC
/// agent three quarters of its round trip).
pub struct Spinning(TcpStream);

/// Connects to `address` (`host:port`): the reading end and the writing end.
pub fn connect(address: &str) -> io::Result<(Spinning, Spinning)> {
    let stream = TcpStream::connect(address)?;
    stream.set_nodelay(true)?;
    stream.set_nonblocking(true)?;
    Ok((Spinning(stream.try_clone()?), Spinning(stream)))
}

impl Read for Spinning {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_spinning(&mut self.0, buf, None)
            .map_err(|e| io::Error::new(io::ErrorKind::ConnectionReset, format!("{e:?}")))
    }
}

impl Write for Spinning {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        write_all(&mut self.0, buf, None).map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
