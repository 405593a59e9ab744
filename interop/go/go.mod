module pqdr.invalid/interop/go

go 1.26
