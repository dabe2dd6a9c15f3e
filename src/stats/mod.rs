//! TEMPORARY stand-in until the stats branch lands (same API).
pub const Z95: f64 = 1.959963984540054;
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}
pub fn wilson(successes: f64, n: f64, z: f64) -> Interval {
    if n <= 0.0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let p = successes / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    Interval {
        lo: c - h,
        hi: c + h,
    }
}
#[derive(Clone, Debug, Default)]
pub struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanCi {
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
    pub lo: f64,
    pub hi: f64,
}
impl Welford {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    pub fn n(&self) -> u64 {
        self.n
    }
    pub fn mean(&self) -> f64 {
        self.mean
    }
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }
    pub fn ci(&self, level: f64) -> MeanCi {
        use statrs::distribution::{ContinuousCDF, StudentsT};
        let sd = self.variance().sqrt();
        let h = if self.n < 2 {
            0.0
        } else {
            let t = StudentsT::new(0.0, 1.0, (self.n - 1) as f64).unwrap();
            t.inverse_cdf(0.5 + level / 2.0) * sd / (self.n as f64).sqrt()
        };
        MeanCi {
            n: self.n,
            mean: self.mean,
            sd,
            lo: self.mean - h,
            hi: self.mean + h,
        }
    }
}
