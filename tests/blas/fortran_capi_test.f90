! The C API <coheriq/coheriq.h> from Fortran through bind(C): an interface module for the
! functions used here (the pattern for any other), then the engine, a dot product, a GEMM and an
! error with its message. Also the example of docs/api.md ("C API").
module coheriq_c
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int), parameter :: COHERIQ_OK = 0, COHERIQ_ERROR_INVALID_ARGUMENT = 1
  integer(c_int), parameter :: COHERIQ_NO_TRANS = 0, COHERIQ_TRANS = 1
  character(*), parameter :: COHERIQ_KERNELS_DOMAIN = 'coheriq.kernels'
  interface
    integer(c_int) function coheriq_active_engine(domain, buf, size) bind(C)
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: domain(*)
      character(kind=c_char), intent(out) :: buf(*)
      integer(c_size_t), value :: size
    end function
    integer(c_int) function coheriq_sdot(n, x, y, result) bind(C)
      import :: c_int, c_float, c_size_t
      integer(c_size_t), value :: n
      real(c_float), intent(in) :: x(*), y(*)
      real(c_float), intent(out) :: result
    end function
    ! Row-major: a Fortran (column-major) matrix is its transpose, so C^T = B^T A^T is computed
    ! by passing B first (the same trick libcoheriq_blas uses).
    integer(c_int) function coheriq_dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) &
        bind(C)
      import :: c_int, c_double, c_size_t
      integer(c_int), value :: ta, tb
      integer(c_size_t), value :: m, n, k, lda, ldb, ldc
      real(c_double), value :: alpha, beta
      real(c_double), intent(in) :: a(*), b(*)
      real(c_double), intent(inout) :: c(*)
    end function
    type(c_ptr) function coheriq_last_error() bind(C)
      import :: c_ptr
    end function
  end interface
contains
  ! The C string at p as a Fortran string.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    interface
      integer(c_size_t) function strlen(q) bind(C)
        import :: c_ptr, c_size_t
        type(c_ptr), value :: q
      end function
    end interface
    n = int(strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(n) :: s)
    s = transfer(chars, s)
  end function
end module coheriq_c

program fortran_capi_test
  use coheriq_c
  implicit none
  character(kind=c_char) :: engine(64)
  real(c_float) :: x(5) = [1, 2, 3, 4, 5], y(5) = [1, 1, 1, 1, -1], dot
  real(c_double) :: a(2, 3), b(3, 2), c(2, 2)
  integer :: status, i
  character(:), allocatable :: message
  status = coheriq_active_engine(COHERIQ_KERNELS_DOMAIN // c_null_char, engine, 64_c_size_t)
  if (status /= COHERIQ_OK) stop 1
  i = index(transfer(engine, repeat(' ', 64)), c_null_char)
  print '(2a)', 'fortran_capi_test: engine ', transfer(engine(1:i - 1), repeat(' ', i - 1))
  if (coheriq_sdot(5_c_size_t, x, y, dot) /= COHERIQ_OK .or. dot /= 5.0) stop 2
  a = reshape([1d0, 2d0, 3d0, 4d0, 5d0, 6d0], [2, 3])
  b = reshape([1d0, 0d0, 1d0, 0d0, 1d0, 1d0], [3, 2])
  ! Fortran C(2x2) = A(2x3) B(3x2): row-major C^T (2x2) = B^T (2x3) A^T (3x2), ld = Fortran rows.
  status = coheriq_dgemm(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, 2_c_size_t, 2_c_size_t, 3_c_size_t, &
                         1d0, b, 3_c_size_t, a, 2_c_size_t, 0d0, c, 2_c_size_t)
  if (status /= COHERIQ_OK) stop 3
  if (any(abs(c - matmul(a, b)) > 1d-12)) stop 4
  ! An error: a leading dimension too small, reported as a code and a message.
  status = coheriq_dgemm(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, 2_c_size_t, 2_c_size_t, 3_c_size_t, &
                         1d0, b, 2_c_size_t, a, 2_c_size_t, 0d0, c, 2_c_size_t)
  if (status /= COHERIQ_ERROR_INVALID_ARGUMENT) stop 5
  message = c_string(coheriq_last_error())
  if (message(1:8) /= 'coheriq:') stop 6
  print '(2a)', 'fortran_capi_test: error reported: ', message
  print '(a)', 'fortran_capi_test: all checks passed'
end program fortran_capi_test
