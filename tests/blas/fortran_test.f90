! A Fortran program calling the BLAS routines of libcoheriq_blas (linked directly, no system BLAS
! on its link line), against plain Fortran loops: sdot, daxpy, dnrm2, isamax, sgemm with
! transposes, odd sizes and padded leading dimensions.
program fortran_blas_test
  implicit none
  real :: sdot, snrm2
  integer :: isamax
  external :: sdot, snrm2, isamax, sgemm, daxpy
  real :: x(40), y(40), a(9, 5), b(6, 7), c(8, 7), c0(8, 7), want
  double precision :: dx(10), dy(10)
  integer :: i, j, l, failures
  failures = 0
  do i = 1, 40
    x(i) = real(mod(i * 37, 23) - 11) / 8.0
    y(i) = real(mod(i * 11, 19) - 9) / 4.0
  end do
  ! dot with increments 2 and -3 (a negative increment walks from the far end)
  want = 0.0
  do i = 1, 10
    want = want + x(1 + (i - 1) * 2) * y(1 + (10 - i) * 3)
  end do
  if (abs(sdot(10, x, 2, y, -3) - want) > 1e-5) call fail('sdot')
  if (abs(snrm2(13, x, 3) - sqrt(sum(x(1:37:3)**2))) > 1e-5) call fail('snrm2')
  if (isamax(40, x, 1) /= maxloc(abs(x), 1)) call fail('isamax')
  dx = [(dble(i), i = 1, 10)]
  dy = 1.0d0
  call daxpy(5, 2.0d0, dx, 2, dy, 1)
  if (any(dy(1:5) /= 1.0d0 + 2.0d0 * dx(1:9:2)) .or. any(dy(6:10) /= 1.0d0)) call fail('daxpy')
  do j = 1, 5
    do i = 1, 9
      a(i, j) = real(mod(i * 5 + j * 3, 17) - 8) / 4.0
    end do
  end do
  do j = 1, 7
    do i = 1, 6
      b(i, j) = real(mod(i * 7 + j, 13) - 6) / 2.0
    end do
  end do
  c0 = 1.5
  c = c0
  ! C(1:7, 1:6) = 0.5 * A(1:7, 1:5) * B(1:6, 1:5)^T - C: transb = 'T', lda 9, ldb 6, ldc 8
  call sgemm('N', 'T', 7, 6, 5, 0.5, a, 9, b, 6, -1.0, c, 8)
  do j = 1, 6
    do i = 1, 7
      want = -c0(i, j)
      do l = 1, 5
        want = want + 0.5 * a(i, l) * b(j, l)
      end do
      if (abs(c(i, j) - want) > 1e-4) call fail('sgemm')
    end do
  end do
  if (any(c(8, :) /= 1.5) .or. any(c(:, 7) /= 1.5)) call fail('sgemm wrote outside C')
  if (failures /= 0) stop 1
  print '(a)', 'fortran_blas_test: all checks passed'
contains
  subroutine fail(what)
    character(*), intent(in) :: what
    print '(2a)', 'FAILED: ', what
    failures = failures + 1
  end subroutine fail
end program fortran_blas_test
