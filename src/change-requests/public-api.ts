/**
 * What other modules may use of change requests (docs/CONTRACTS.md): MCP proposes changes as
 * its caller through ChangeRequestsService.
 */
export { ChangeRequestsModule } from './change-requests.module';
export { ChangeRequestsService } from './change-requests.service';
