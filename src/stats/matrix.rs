//! Small dense symmetric matrices, row-major `n × n` slices: the rating fits solve systems with one
//! row per bot, a few dozen at most, so plain loops are the right tool.

/// The inverse of a symmetric positive definite matrix by its Cholesky factor L·Lᵀ; `None` when a
/// pivot is not positive (the matrix is singular or indefinite to rounding).
pub fn inverse_spd(a: &[f64], n: usize) -> Option<Vec<f64>> {
    debug_assert_eq!(a.len(), n * n);
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s = a[i * n + j] - (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum::<f64>();
            if i == j {
                // Relative to the diagonal: a pivot lost to cancellation means a singular matrix.
                if s <= 1e-12 * a[i * n + i].abs() || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    // Column c of the inverse: solve L·y = e_c, then Lᵀ·x = y.
    let mut inv = vec![0.0; n * n];
    let mut y = vec![0.0; n];
    for c in 0..n {
        for i in 0..n {
            let e = if i == c { 1.0 } else { 0.0 };
            y[i] = (e - (0..i).map(|k| l[i * n + k] * y[k]).sum::<f64>()) / l[i * n + i];
        }
        for i in (0..n).rev() {
            let s = y[i] - (i + 1..n).map(|k| l[k * n + i] * inv[k * n + c]).sum::<f64>();
            inv[i * n + c] = s / l[i * n + i];
        }
    }
    Some(inv)
}

/// The product a·b of two `n × n` matrices.
pub fn product(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut out = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            let aik = a[i * n + k];
            for j in 0..n {
                out[i * n + j] += aik * b[k * n + j];
            }
        }
    }
    out
}

/// The sandwich a·m·a (a symmetric): the covariance of an estimator with inverse information `a`
/// and score covariance `m`.
pub fn sandwich(a: &[f64], m: &[f64], n: usize) -> Vec<f64> {
    product(&product(a, m, n), a, n)
}

/// a·x.
pub fn apply(a: &[f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    (0..n).map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_known_matrix() {
        // [[4, 2], [2, 3]]⁻¹ = [[3, −2], [−2, 4]] / 8.
        let inv = inverse_spd(&[4.0, 2.0, 2.0, 3.0], 2).unwrap();
        let want = [0.375, -0.25, -0.25, 0.5];
        assert!(inv.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15), "{inv:?}");
        let a = [6.0, 2.0, 1.0, 2.0, 5.0, 2.0, 1.0, 2.0, 4.0];
        let inv = inverse_spd(&a, 3).unwrap();
        let id = product(&a, &inv, 3);
        for i in 0..3 {
            for j in 0..3 {
                assert!((id[i * 3 + j] - f64::from(u8::from(i == j))).abs() < 1e-14, "{id:?}");
            }
        }
        assert_eq!(apply(&a, &[1.0, 0.0, -1.0]), vec![5.0, 0.0, -3.0]);
    }

    #[test]
    fn singular_and_indefinite_matrices_have_no_inverse() {
        assert!(inverse_spd(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
        assert!(inverse_spd(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
        assert!(inverse_spd(&[0.0], 1).is_none());
    }
}
